package analysis

import (
	"maps"
	"regexp"
	"slices"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Collectives on axis names no binder binds (PAL104, issue 18 item 1). A
// plain JAX collective (lax.psum, ppermute, all_gather, axis_index, ...)
// called on a literal axis name in code reached from a concrete entry is
// recorded when nothing around it binds the name: jit and eager code bind
// none (nor do jax.set_mesh and `with mesh:`); a shard_map binds its
// manual axes; vmap binds its axis_name and spmd_axis_name. pmap, xmap, a
// vmap whose names are not literal, and unknown contexts count as binding
// every name (unknown is never an error), and so does code under
// `with pytest.raises(...)` / `with self.assertRaises(...)`, which expects
// the failure. In a library entry (no caller in the workspace) only the
// binders the context itself shows count (mayBindInLibrary), and PAL104
// reports what it records only for names the workspace writes nowhere
// else.

// collKey identifies one recorded collective: its call site and the
// unbound name.
type collKey struct {
	site *ir.Expr
	axis string
	// shown: recorded where the context shows the axis is not manual
	// (spmdCtx.Unmanual), which a library path without that evidence
	// does not replace.
	shown bool
}

// collUse is one collective on an unbound name, as recorded.
type collUse struct {
	api  string
	axis string
	// axisText is the source of a symbolic axis argument (axis empty);
	// axisWhy, for one whose value is not known, why it names an axis
	// (nonEmptyCollective).
	axisText, axisWhy string
	site              *ir.Expr
	file              *ir.Summary
	eager             bool
	// vma: traced with check_vma on; constArg: the operand is a Python
	// constant (lowering.NotInMeshCollective); mixed: the names also hold
	// a manual axis the shard_map's in_specs shard over (mixedVMA).
	vma, constArg, mixed bool
	rs                   *reachState
	// unmanual is the call showing the axis is not manual here
	// (spmdCtx.UnmanualWhy), in a library entry; empty otherwise.
	unmanual text
	// passed are the literals of the axis passed as plain arguments by the
	// calls on the path here (passedLiterals), located when rendered (an
	// edit that moves them moves their IR).
	passed []literalAt
	// eagerAt is where a library entry reads the result as a Python
	// value (eagerread.go); empty otherwise.
	eagerAt text
}

// axisBinder models jax.vmap / xmap: the names it binds, literal or not.
func (in *interp) axisBinder(name string, a args) value {
	b := &vBatched{Fn: first(a), Vmap: name == "jax.vmap", InAxes: argAt(a, 1, "in_axes")}
	if name != "jax.vmap" {
		b.Any = true // xmap binds the names of its in_axes dicts
	}
	for _, kw := range []string{"axis_name", "spmd_axis_name"} {
		v, ok := a.kw[kw]
		if !ok || isNone(v) {
			continue
		}
		names, ok := strList(v)
		if !ok {
			b.Any = true
			continue
		}
		b.Axes = append(b.Axes, names...)
	}
	if isUnknown(b.Fn) {
		// functools.partial(jax.vmap, ...) applied later, or a factory: the
		// product runs its argument in the caller's context.
		return &vExternal{Qual: identity}
	}
	return b
}

func (in *interp) callBinder(b *vBatched, a args, site *ir.Expr) value {
	c := *in.cur
	c.cachedKey = ""
	c.Traced = true
	c.BoundAny = c.BoundAny || b.Any
	c.Vmapped = c.Vmapped || b.Vmap
	c.VmapWide = c.VmapWide || b.Vmap && batchWide(b, a)
	c.Bound = append(slices.Clone(c.Bound), b.Axes...)
	if b.Vmap {
		a = unbatched(a)
	}
	return in.withCtx(&c, site, "vmap", func() value { return in.call(b.Fn, a, site) })
}

// unbatched is a vmap's arguments as its function sees them: an array of
// known shape loses its mapped axis (in_axes may name any), so its shape
// is no longer known there.
func unbatched(a args) args {
	out := args{pos: slices.Clone(a.pos), kw: a.kw, opaque: a.opaque}
	for i, v := range out.pos {
		if _, ok := arrayShape(v); ok {
			out.pos[i] = tracedValue
		}
	}
	if len(a.kw) > 0 {
		out.kw = maps.Clone(a.kw)
		for k, v := range out.kw {
			if _, ok := arrayShape(v); ok {
				out.kw[k] = tracedValue
			}
		}
	}
	return out
}

// traced runs f with the current context marked as tracing (the bodies
// of lax control flow).
func (in *interp) traced(f func() value) value {
	if in.cur == nil || in.cur.Traced || in.cur.Kind != ctxPlain {
		return f() // only plain code runs eagerly
	}
	saved := in.cur
	c := *in.cur
	c.cachedKey = ""
	c.Traced = true
	in.cur = &c
	defer func() { in.cur = saved }()
	return f()
}

// collective records api called at site on an unbound axis name.
func (in *interp) collective(api string, a args, site *ir.Expr) {
	c := in.cur
	if c == nil || site == nil || c.BoundAny || c.ExpectRaise {
		return
	}
	if len(in.stack) == 0 {
		return
	}
	lib := in.stack[0].library
	if c.Kind != ctxPlain && c.Kind != ctxShardMap && !(lib && c.Kind == ctxUnknown) {
		return
	}
	pos := 1
	if api == "jax.lax.axis_index" || api == "jax.lax.axis_size" {
		pos = 0
	}
	names, ok := strList(argAt(a, pos, "axis_name"))
	if !ok {
		switch {
		case lib && c.Kind == ctxUnknown:
			in.symbolicCollective(api, a, site, pos)
		case !lib && c.Kind == ctxPlain:
			in.nonEmptyCollective(api, a, site, pos)
		}
		return
	}
	for _, n := range names {
		if lib && c.mayBindInLibrary(n) || !lib && c.binds(n) {
			continue
		}
		shown := lib && c.Kind == ctxUnknown && slices.Contains(c.Unmanual, n) && !c.UnmanualWhy.empty()
		k := collKey{site, n, shown}
		if _, seen := in.colls[k]; seen || in.guarded() {
			return
		}
		_, constArg := first(a).(*vConst)
		u := &collUse{api: api, axis: n, site: site, file: in.file, eager: c.Kind == ctxPlain && !c.Traced,
			vma: c.VMA == vmaOn, constArg: constArg, mixed: c.mixedVMA(names, n), rs: in.reach(), passed: in.passedLiterals(n)}
		if shown {
			u.unmanual = c.UnmanualWhy
		}
		in.recordColl(u)
		return
	}
}

// symbolicCollective records a collective of a library entry whose axis
// is a symbol (symbols.go) that the context shows is not manual: the
// function shards over that same value first. The axis is then named by
// the argument's source (`in_axis`).
func (in *interp) symbolicCollective(api string, a args, site *ir.Expr, pos int) {
	c := in.cur
	v := argAt(a, pos, "axis_name")
	if !symbolic(v) || !c.hasUnmanualSymbol(v) || c.UnmanualWhy.empty() || len(c.Bound) > 0 || in.guarded() {
		return
	}
	in.recordByText(api, a, site, pos, true, func(u *collUse) { u.unmanual = c.UnmanualWhy })
}

// nonEmptyCollective records a collective in plain code (eager or
// jitted, reached from a concrete entry) whose axis is not known but is
// not empty (nonEmptyAxis): no binder is around it, so whatever names it
// holds, they are unbound. A falsy axis () or [] would be a collective
// over no axis, which JAX runs (None it rejects too: "unbound axis name:
// None", the oracle on 0.11.2); an untested unknown may be one. The axis
// is named by the argument's source. A symbol (an attribute an object's
// __getattr__ chooses, symbols.go) that a jit around the call shards
// over names an axis too: the axis of that sharding (None would fail
// as well).
func (in *interp) nonEmptyCollective(api string, a args, site *ir.Expr, pos int) {
	c := in.cur
	v := argAt(a, pos, "axis_name")
	why := nonEmptyAxis(v)
	if why == "" && symbolic(v) && c.hasUnmanualSymbol(v) && !c.UnmanualWhy.empty() {
		why = "one that `" + c.UnmanualWhy.String() + "` shards over"
	}
	if why == "" || len(c.Bound) > 0 || in.guarded() {
		return
	}
	in.recordByText(api, a, site, pos, false, func(u *collUse) { u.axisWhy, u.eager = why, !c.Traced })
}

// recordByText records the collective api at site whose axis argument
// (at pos, or axis_name=) is known only as its source text, once per site
// and text; shown is collKey's, and set fills in what the caller knows.
func (in *interp) recordByText(api string, a args, site *ir.Expr, pos int, shown bool, set func(*collUse)) {
	arg := argExpr(site, pos, "axis_name")
	if arg == nil {
		return
	}
	name := describeAt(in.file, arg)
	if _, seen := in.colls[collKey{site, name, shown}]; seen {
		return
	}
	_, constArg := first(a).(*vConst)
	u := &collUse{api: api, axisText: name, site: site, file: in.file, vma: in.cur.VMA == vmaOn, constArg: constArg, rs: in.reach()}
	set(u)
	in.recordColl(u)
}

// nonEmptyAxis says why v, an axis argument that is no one list of names,
// names at least one axis whatever it is: it is truthy (nonEmptyUnknown:
// `if in_axis: psum(x, in_axis)`), or a join whose every alternative is
// truthy or a non-empty literal name or tuple of names (`("data", "model")
// if split else "data"`). "" when it may name none.
func nonEmptyAxis(v value) string {
	if v == nonEmptyUnknown {
		return "non-empty where an `if` tested it"
	}
	u, ok := v.(*vUnion)
	if !ok {
		return ""
	}
	for _, alt := range u.Alts {
		if names, ok := strList(alt); alt != nonEmptyUnknown && (!ok || len(names) == 0) {
			return ""
		}
	}
	return "one of several axis names the program may choose"
}

// key is u's place in interp.colls: its site, its axis (or the source of
// a symbolic one), and whether evidence shows the axis unbound there.
func (u *collUse) key() collKey {
	axis := u.axis
	if axis == "" {
		axis = u.axisText
	}
	return collKey{u.site, axis, !u.unmanual.empty() || !u.eagerAt.empty()}
}

// recordColl adds u, and logs it for the running detached entry.
func (in *interp) recordColl(u *collUse) {
	in.addColl(u)
	if in.h.log != nil {
		in.h.log.colls = append(in.h.log.colls, u)
	}
}

func (in *interp) addColl(u *collUse) {
	k := u.key()
	if _, seen := in.colls[k]; seen {
		return
	}
	in.h.journal.colls.add(k, u)
	in.collOrder = append(in.collOrder, u)
}

// literalAt is a literal expression and the file that holds it.
type literalAt struct {
	file *ir.Summary
	e    *ir.Expr
}

// passedLiterals finds the string literals equal to name (alone or in a
// literal tuple) that the calls on the stack pass as plain arguments:
// `psum_scatter(x, "i")` into a helper that reduces over its parameter.
// Such a literal is the name reaching the collective, not a mesh or
// binder that could have it, so "written elsewhere" leaves it out
// (Pass.WrittenElsewhere).
func (in *interp) passedLiterals(name string) []literalAt {
	var out []literalAt
	add := func(f *ir.Summary, e *ir.Expr) {
		if e == nil || f == nil {
			return
		}
		items := []*ir.Expr{e}
		if e.Kind == ir.ExTuple || e.Kind == ir.ExList {
			items = e.Args
		}
		for _, it := range items {
			if it.Kind == ir.ExConst && it.Const().Kind == ir.ConstStr && it.Const().S == name {
				out = append(out, literalAt{f, it})
			}
		}
	}
	for _, fr := range in.stack {
		if fr.site == nil || fr.site.Kind != ir.ExCall {
			continue
		}
		for _, a := range fr.site.Args {
			add(fr.file, a)
		}
		for _, k := range fr.site.Kw() {
			add(fr.file, k.Value)
		}
	}
	return out
}

// mixedVMA reports whether names, a collective's axes with the unbound
// name n, also hold an axis this shard_map makes manual and its in_specs
// shard over, under check_vma: an operand computed from the inputs varies
// over that axis and not over n, which psum rejects first from JAX 0.8.2
// (lowering.MixedVMACollective).
func (c *spmdCtx) mixedVMA(names []string, n string) bool {
	if c.Kind != ctxShardMap || c.VMA != vmaOn || c.SM == nil || len(names) < 2 {
		return false
	}
	sharded, _ := specTreeAxes(c.SM.InSpecs, 0)
	for _, m := range names {
		if m != n && slices.Contains(sharded, m) && c.binds(m) && slices.Contains(c.MeshAxes, m) {
			return true
		}
	}
	return false
}

// mayBindInLibrary reports whether a context a library entry runs in
// (no caller in the workspace: its callers' binders are unknown) binds
// the name, or may, for what the context itself shows: a binder around
// it that names it or binds any name, a shard_map that makes it manual or
// whose mesh has it. Everything else may still be bound by a caller; PAL104
// reports such a name only when the program writes it nowhere else (no
// mesh or binder in the workspace can have it), as a warning.
func (c *spmdCtx) mayBindInLibrary(name string) bool {
	if c.BoundAny || slices.Contains(c.Bound, name) {
		return true
	}
	if c.Kind == ctxShardMap {
		return slices.Contains(c.Manual, name) || slices.Contains(c.MeshAxes, name)
	}
	return false
}

// binds reports whether the context binds the axis name, or may.
func (c *spmdCtx) binds(name string) bool {
	if c.BoundAny || slices.Contains(c.Bound, name) {
		return true
	}
	switch c.Kind {
	case ctxPlain:
		return false
	case ctxShardMap:
		// Unbound: a mesh axis the shard_map leaves automatic, and a name
		// the shard_map's mesh does not have. The mesh is known only when
		// it is one mesh value (a join of several, a parameter a library
		// entry leaves unknown, or a non-literal axis_names is nil), so a
		// name outside it is outside the mesh this call runs with; only an
		// outer shard_map (nested) may bind such a name.
		if c.MeshAxes == nil || slices.Contains(c.Manual, name) {
			return true
		}
		if !slices.Contains(c.MeshAxes, name) {
			return c.Nested
		}
		return c.AllManual || c.Manual == nil
	}
	return true
}

// catchesNameError matches an except clause that catches NameError: by
// name, as Exception or BaseException, or bare.
var catchesNameError = regexp.MustCompile(`\bexcept\s*:|\bexcept\b[^:\n]*\b(NameError|Exception|BaseException)\b`)

// guarded reports whether a function on the stack catches NameError
// (`try: n = lax.axis_size(name) except NameError: ...`, the way code
// probes whether an axis is bound): the collective may be its probe.
func (in *interp) guarded() bool {
	for _, f := range in.stack {
		if d := f.def; d != nil && d.File != nil && d.Span.End <= len(d.File.Src) &&
			catchesNameError.Match(d.File.Src[d.Span.Start:d.Span.End]) {
			return true
		}
	}
	return false
}

// expectsRaise reports whether a with-item is `pytest.raises(...)` or
// `self.assertRaises(...)` / `assertRaisesRegex(...)`: its body is
// expected to fail.
func expectsRaise(e *ir.Expr) bool {
	if e == nil || e.Kind != ir.ExCall || e.X == nil || e.X.Kind != ir.ExAttr {
		return false
	}
	switch e.X.Name {
	case "raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assertRaisesWithPredicateMatch":
		return true
	}
	return false
}

// collFacts renders the recorded collectives.
func (in *interp) collFacts() []*UnboundCollective {
	out := make([]*UnboundCollective, 0, len(in.collOrder))
	for _, u := range in.collOrder {
		uc := &UnboundCollective{
			Location: Locate(u.file, u.site.Span), API: u.api, Axis: u.axis, AxisText: u.axisText, AxisWhy: u.axisWhy, Eager: u.eager, Reach: u.rs.render(),
			VMA: u.vma, ConstArg: u.constArg, MixedVMA: u.mixed,
		}
		for _, l := range u.passed {
			uc.PassedAt = append(uc.PassedAt, Locate(l.file, l.e.Span))
		}
		if t := u.eagerAt; t.site != nil {
			uc.EagerRead = &Related{Location: Locate(t.file, t.site.Span), Message: "`" + t.String() + "` reads the result as a Python value"}
		}
		if t := u.unmanual; t.site != nil {
			over := "`" + u.axis + "`"
			if u.axis == "" {
				over = "the axis in `" + u.axisText + "`"
			}
			uc.NotManual = &Related{Location: Locate(t.file, t.site.Span), Message: "`" + t.String() + "` shards over " + over}
		}
		out = append(out, uc)
	}
	return out
}

// batchWide reports whether a vmap's batch size is known to exceed 1: it
// maps axis 0 (in_axes omitted or 0) and its first argument has a known
// shape whose first dimension is more than 1.
func batchWide(b *vBatched, a args) bool {
	if b.InAxes != nil {
		if n, ok := intConst(b.InAxes); !ok || n != 0 {
			return false
		}
	}
	if len(a.pos) == 0 {
		return false
	}
	s, ok := arrayShape(a.pos[0])
	if !ok {
		c, isCall := a.pos[0].(*vExtCall)
		if !isCall {
			return false
		}
		if s, ok = reshaped(c); !ok {
			return false
		}
	}
	dims, ok := knownShape(s)
	return ok && len(dims) > 0 && dims[0] > 1
}

// axisEnvBinder is f traced with make_jaxpr's axis_env: a list of (name,
// size) pairs bound around it; names that are not literal bind any.
func axisEnvBinder(f, env value) value {
	b := &vBatched{Fn: f}
	items := seqItems(env)
	if items == nil {
		b.Any = true
	}
	for _, it := range items {
		pair := seqItems(it)
		if len(pair) == 0 {
			b.Any = true
			continue
		}
		name, ok := constStr(pair[0])
		if !ok {
			b.Any = true
			continue
		}
		b.Axes = append(b.Axes, name)
	}
	return b
}
