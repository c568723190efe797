package analysis

import (
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// Inert library functions. runLibraryEntries evaluates every module-level
// function that no entry reached. Many are helpers that cannot reach a
// kernel: shape arithmetic, jnp maths, pl.cdiv. A fact needs a kernel
// value, and only a call of a kernel-making API (pl.pallas_call, pl.kernel,
// pl.core_map, the self-wrapping library kernels: lowering's table) makes
// one, or a collective, axis_index or axis_size (PAL104's library
// warning: collective.go). A function is inert when no evaluation of it
// can reach one of these APIs:
//   - every name it reads, it or any function or lambda nested in it, is a
//     parameter, a builtin or a module global. Other locals count as
//     globals, because the interpreter looks a name up in the module while
//     the local is unbound (a branch not taken);
//   - each global it reads has an inert value now: plain data (literals,
//     unknown values, meshes, shardings); an external name whose attribute
//     chain, as written, is neither a kernel-making API nor above or below
//     one (`pl.cdiv` and `jnp.sum` are fine; `pl` alone is one getattr from
//     pl.pallas_call); the result of an external call on inert values; a
//     module-level workspace function that is inert itself, with inert
//     default values; a partial of inert values; an attribute chain
//     through a workspace module that has already run, ending at an inert
//     value (`utils.cdiv`);
//   - it imports nothing and defines no class.
//
// The entry's arguments are opaque, so its parameters hold unknown values.
// Evaluating an inert function records no fact and changes nothing another
// evaluation reads: attribute assignment reaches only workspace objects
// (instances, classes, modules), and it can obtain none.
//
// So the library entry is skipped. Every function it could evaluate is
// marked called, by the skipping entry: an edit to any of them resumes the
// analysis from that entry (resume.go), as for a function that ran, since
// the edit may make the function no longer inert.
// Its evaluation count moves as if it had run. What differs from running
// it is the steps not spent, and the evaluation counts of the functions it
// would have called, which widen a function's later calls only after many
// distinct ones.
//
// The test reads identifiers and the kinds of values, never literals, so
// an edit the trivia path keeps (ir/trivia.go) cannot change its answer.

// maxInertDepth bounds the nesting of values inspected.
const maxInertDepth = 4

// maxInertWork bounds the references one check follows; past it the
// function is evaluated.
const maxInertWork = 4096

// globalRef is a read of a name that is no parameter, with the attribute
// chain written after it.
type globalRef struct {
	name  string
	attrs []string
}

// funcRefs is what a function's text says for the inert test, computed once
// per run and function.
type funcRefs struct {
	ok   bool          // no import, no class
	refs []globalRef   // distinct
	defs []*ir.FuncDef // the function and the functions and lambdas nested in it
}

// refsOf returns what the inert test reads of a module-level function.
// A function's text is the same from run to run while its FuncDef is (a
// re-summarised file has new ones; the dead-body path, which gives an old
// FuncDef a new body, drops its entry), so the last run's answers carry
// over; the map keeps only the functions this run asked about.
func (in *interp) refsOf(d *ir.FuncDef) *funcRefs {
	if r := in.inertRefs[d]; r != nil {
		return r
	}
	r := in.inertPrev[d]
	if r == nil {
		w := &refWalk{r: &funcRefs{ok: true}, seen: map[string]bool{}}
		w.fn(nil, d)
		r = w.r
	}
	if in.inertRefs == nil {
		in.inertRefs = make(map[*ir.FuncDef]*funcRefs, len(in.inertPrev))
	}
	in.inertRefs[d] = r
	return r
}

// inertCache is what the inert test read of each function it asked about,
// for the next run (runSettings.inertPrev).
func (in *interp) inertCache() map[*ir.FuncDef]*funcRefs { return in.inertRefs }

// forgetInert drops what the inert test read of def, whose body an edit
// replaced (reuse.go).
func (in *interp) forgetInert(def *ir.FuncDef) { delete(in.inertRefs, def) }

type inertScope struct {
	parent *inertScope
	params map[string]bool
}

func (s *inertScope) binds(name string) bool {
	for ; s != nil; s = s.parent {
		if s.params[name] {
			return true
		}
	}
	return false
}

type refWalk struct {
	r    *funcRefs
	seen map[string]bool
}

func (w *refWalk) fn(parent *inertScope, d *ir.FuncDef) {
	w.r.defs = append(w.r.defs, d)
	sc := &inertScope{parent: parent, params: map[string]bool{}}
	for _, p := range d.Params {
		sc.params[p.Name] = true
	}
	w.body(sc, d.Body)
}

func (w *refWalk) body(sc *inertScope, body []*ir.Stmt) {
	for _, st := range body {
		w.stmt(sc, st)
	}
}

func (w *refWalk) stmt(sc *inertScope, st *ir.Stmt) {
	switch st.Kind {
	case ir.StImport, ir.StClass:
		w.r.ok = false
		return
	case ir.StDef:
		// Decorators and defaults run in the enclosing scope.
		for _, d := range st.Def.Decorators {
			w.expr(sc, d)
		}
		w.defaults(sc, st.Def)
		w.fn(sc, st.Def)
		return
	}
	w.expr(sc, st.Value)
	w.expr(sc, st.Cond)
	for _, t := range st.Targets {
		w.expr(sc, t)
	}
	for _, it := range st.Items {
		w.expr(sc, it.Ctx)
		w.expr(sc, it.Target)
	}
	w.body(sc, st.Body)
	w.body(sc, st.Else)
	w.body(sc, st.Finally)
}

func (w *refWalk) expr(sc *inertScope, e *ir.Expr) {
	if e == nil || !w.r.ok {
		return
	}
	switch e.Kind {
	case ir.ExName:
		w.ref(sc, e.Name, nil)
		return
	case ir.ExAttr:
		var attrs []string
		x := e
		for ; x.Kind == ir.ExAttr; x = x.X {
			attrs = append(attrs, x.Name)
		}
		if x.Kind != ir.ExName {
			w.expr(sc, x)
			return
		}
		slices.Reverse(attrs)
		w.ref(sc, x.Name, attrs)
		return
	case ir.ExLambda:
		w.defaults(sc, e.Lambda())
		w.fn(sc, e.Lambda())
		return
	}
	w.expr(sc, e.X)
	for _, a := range e.Args {
		w.expr(sc, a)
	}
	for _, k := range e.Kw() {
		w.expr(sc, k.Key)
		w.expr(sc, k.Value)
	}
}

// defaults reads a def's or lambda's default values, which run in the
// enclosing scope.
func (w *refWalk) defaults(sc *inertScope, d *ir.FuncDef) {
	for _, p := range d.Params {
		w.expr(sc, p.Default)
	}
}

func (w *refWalk) ref(sc *inertScope, name string, attrs []string) {
	if sc.binds(name) {
		return
	}
	key := name
	if len(attrs) > 0 {
		key += "." + strings.Join(attrs, ".")
	}
	if !w.seen[key] {
		w.seen[key] = true
		w.r.refs = append(w.r.refs, globalRef{name: name, attrs: attrs})
	}
}

// inertCheck follows the references of one library function.
type inertCheck struct {
	in   *interp
	defs []*ir.FuncDef // every function the check visited
	seen map[*ir.FuncDef]bool
	work int
}

// inertFunc reports whether calling the module-level function f with
// opaque arguments is inert, and returns the functions it could evaluate.
func (in *interp) inertFunc(f *vFunc) ([]*ir.FuncDef, bool) {
	c := &inertCheck{in: in, seen: map[*ir.FuncDef]bool{}}
	if !c.fn(f) {
		return nil, false
	}
	return c.defs, true
}

// fn checks a module-level function's body against its module's scope.
func (c *inertCheck) fn(f *vFunc) bool {
	if f.Self != nil || f.Env == nil || f.Env.parent != nil {
		return false // a bound method or a closure
	}
	if c.seen[f.Def] {
		return true
	}
	c.seen[f.Def] = true
	r := c.in.refsOf(f.Def)
	if !r.ok {
		return false
	}
	c.defs = append(c.defs, r.defs...)
	for _, g := range r.refs {
		if c.work++; c.work > maxInertWork {
			return false
		}
		if v, ok := f.Env.get(g.name); ok && !c.value(v, g.attrs, maxInertDepth) {
			return false
		}
	}
	return true
}

// value checks a value read through the attribute chain attrs.
func (c *inertCheck) value(v value, attrs []string, depth int) bool {
	if depth == 0 {
		return false
	}
	switch v := v.(type) {
	case *vUnknown, *vConst, *vNonNone, *vMesh, *vCoreMesh, *vOnMesh, *vSharding, *vShardedArray:
		return true
	case *vExternal:
		return !nearKernelAPI(v.Qual, attrs)
	case *vExtCall:
		return !nearKernelAPI(v.Qual, nil) && c.values(v.Args, depth) && c.values(mapValues(v.Kw), depth)
	case *vUnion:
		return c.values(v.Alts, depth)
	case *vPartial:
		return c.value(v.Fn, nil, depth-1) && c.values(v.Args, depth) && c.values(mapValues(v.Kw), depth)
	case *vBatched:
		return c.value(v.Fn, nil, depth-1)
	case *vModule:
		// Reading an attribute of a module that has run reads its scope;
		// anything else may run a module.
		m := v.M
		r := c.in.mods[m.id]
		if len(attrs) == 0 || r.state != modDone || r.env == nil {
			return false
		}
		w, ok := r.env.get(attrs[0])
		return ok && c.value(w, attrs[1:], depth)
	case *vFunc:
		return c.values(v.Defaults, depth) && c.fn(v)
	}
	return false
}

func (c *inertCheck) values(vs []value, depth int) bool {
	for _, v := range vs {
		if v != nil && !c.value(v, nil, depth-1) {
			return false
		}
	}
	return true
}

// kernelNames holds the qualified names whose call makes a kernel value
// (lowering's roles pallas-call, kernel-entry, core-map, self-wrapping,
// and their aliases), and kernelAbove every dotted prefix of one.
var kernelNames, kernelAbove = func() (names, above map[string]bool) {
	names, above = map[string]bool{}, map[string]bool{}
	add := func(q string) {
		names[q] = true
		for i := range q {
			if q[i] == '.' {
				above[q[:i]] = true
			}
		}
	}
	for _, a := range lowering.APIs() {
		if makesFact(a.Role) {
			add(a.Name)
		}
	}
	for alias := range lowering.Aliases() {
		if a, ok := lowering.Lookup(alias); ok && makesFact(a.Role) {
			add(alias)
		}
	}
	return names, above
}()

// makesFact: a call of an API of role r can record a fact in a library
// entry (a kernel value, or a collective on an axis name).
func makesFact(r lowering.Role) bool {
	switch r {
	case lowering.RoleCollective, lowering.RoleAxisIndex, lowering.RoleAxisSize:
		return true
	}
	return makesKernel(r)
}

func makesKernel(r lowering.Role) bool {
	switch r {
	case lowering.RolePallasCall, lowering.RoleKernelEntry, lowering.RoleCoreMap, lowering.RoleSelfWrapping,
		lowering.RoleKernelOp, lowering.RoleKernelOpFactory:
		return true
	}
	return false
}

// nearKernelAPI reports whether the external name qual.attrs[0].attrs[1]...
// is a kernel-making API, lies under one, or lies above one (a module a
// getattr away from it).
func nearKernelAPI(qual string, attrs []string) bool {
	var buf [256]byte
	q := append(buf[:0], qual...)
	for _, a := range attrs {
		q = append(append(q, '.'), a...)
	}
	if kernelNames[string(q)] || kernelAbove[string(q)] { // no allocation: map index of a converted slice
		return true
	}
	for i, c := range q {
		if c == '.' && kernelNames[string(q[:i])] {
			return true
		}
	}
	return false
}
