package analysis

import (
	"slices"
	"sort"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// How the interpreter records kernel calls (kernelCalled, offer) and
// renders its records as the facts rules read (fact). A record keeps
// references into the IR, never positions or source text, so that the same
// record renders an edited file's new positions (reuse.go).

type callSiteKey struct {
	site   *ir.Expr
	kernel string
}

type kernelCall struct {
	k *kernelDecl
	// e is what k does: kept here, since the effects cache is state a
	// detached entry takes back (detached.go).
	e       *kernelEffects
	site    *ir.Expr
	file    *ir.Summary
	reaches map[lowering.ContextKind]*reachState
	order   []lowering.ContextKind
	meshes  []MeshRef
	scope   *scope
	// operands are the arguments of the first call recorded, and
	// shapesTrusted whether their shapes are the kernel's (not under vmap,
	// shard_map or pmap) (blockspec.go).
	operands      *args
	shapesTrusted bool
	// rendered is the fact last rendered, with the contexts it rendered
	// (reaches in order): a later rendering reuses it while they are the
	// same and the files it quotes did not move (facts).
	rendered     *KernelCall
	renderedWith []*reachState
}

// renderedNow reports whether kc.rendered renders kc's contexts as they
// are.
func (kc *kernelCall) renderedNow() bool {
	if kc.rendered == nil || len(kc.renderedWith) != len(kc.order) {
		return false
	}
	for i, k := range kc.order {
		if kc.reaches[k] != kc.renderedWith[i] {
			return false
		}
	}
	return true
}

func (in *interp) render(kc *kernelCall) *KernelCall {
	kc.rendered = in.fact(kc)
	kc.renderedWith = kc.renderedWith[:0]
	for _, k := range kc.order {
		kc.renderedWith = append(kc.renderedWith, kc.reaches[k])
	}
	return kc.rendered
}

// kernelCalled records that the kernel k is invoked at site in the
// current context, with the current stack as its witness path.
// a is the call's arguments: the kernel's operands (nil for core_map).
func (in *interp) kernelCalled(k *kernelDecl, site *ir.Expr, a *args) {
	if in.cur.Kind == ctxKernel || site == nil || in.cur.ExpectRaise && in.cur.Expects == nil {
		// Under pytest.raises / assertRaises the failure is what the
		// test wants (as for collectives: collective.go); under one
		// that catches specific types, an error of another type still
		// fails (Reach.Expects).
		return
	}
	// One record per site and kernel: a generic launcher's single call
	// site runs different kernels for different callers.
	o := offer{key: callSiteKey{site, valueKey(k.Body, 3)}, k: k, file: in.file, operands: a,
		trusted: in.batched == 0 && in.cur.Kind == ctxPlain}
	o.e = in.kernelEffects(k) // evaluates in the Kernel context: records no kernel call
	o.rs = in.reach()
	if o.rs.r.ExplicitMesh && !in.cur.ExplicitSharded && unshardedKernel(k, a) {
		// An Explicit context mesh alone: the operands' and results'
		// types are replicated, so lowering fails first (arrays.go).
		o.rs.r.ExplicitMesh = false
	}
	if in.h.log != nil {
		// Replayed later, the offer may create the record or keep its
		// context where this run did not: what that needs is taken now.
		o.prepare(in)
		in.h.log.offers = append(in.h.log.offers, o)
	}
	in.offer(&o)
}

// offer is one report of a kernel call: what kernelCalled saw.
type offer struct {
	key  callSiteKey
	k    *kernelDecl
	e    *kernelEffects
	file *ir.Summary
	rs   *reachState
	// prepared: meshes, scope and rs.r.Outer are set (else they are taken
	// from the interpreter's state, only when needed).
	prepared bool
	meshes   []MeshRef
	scope    *scope
	operands *args
	trusted  bool
}

func (o *offer) prepare(in *interp) {
	o.meshes, o.scope, o.prepared = visibleMeshes(in.env), in.env, true
	in.outerCall(&o.rs.r)
}

// offer adds o to the kernel calls: a record per site and kernel, and per
// context class the shortest witness path.
func (in *interp) offer(o *offer) {
	kc := in.calls[o.key]
	if kc == nil && o.prepared {
		// A replayed offer remakes the record the resume took back:
		// the same one, so that its rendering can be reused.
		if old := in.h.takenBack[o.key]; old != nil && old.k == o.k && old.e == o.e && old.file == o.file && old.operands == o.operands &&
			old.shapesTrusted == o.trusted && old.scope == o.scope && sameMeshSlice(old.meshes, o.meshes) && len(old.order) == 0 {
			kc = old
			delete(in.h.takenBack, o.key)
			in.h.journal.calls.add(o.key, kc)
			in.order = append(in.order, kc)
		}
	}
	if kc == nil {
		kc = &kernelCall{k: o.k, e: o.e, site: o.key.site, file: o.file, reaches: map[lowering.ContextKind]*reachState{}, operands: o.operands, shapesTrusted: o.trusted}
		if o.prepared {
			kc.meshes, kc.scope = o.meshes, o.scope
		} else {
			kc.meshes, kc.scope = visibleMeshes(in.env), in.env
		}
		in.h.journal.calls.add(o.key, kc)
		in.order = append(in.order, kc)
	}
	rs := o.rs
	r := &rs.r
	if old, ok := kc.reaches[r.Kind]; ok && !preferReach(old, rs) {
		return
	}
	if !o.prepared {
		in.outerCall(r)
	}
	in.h.journal.reaches.set(kc, r.Kind, rs)
}

// sameMeshSlice reports whether a and b are the same slice (one offer's).
func sameMeshSlice(a, b []MeshRef) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// preferReach says whether rs replaces old, a reach of the same kind: a
// path outside any raises-block that catches specific types over one
// inside (Reach.Expects), then a path that lowers the call over one that
// only traces it, then the one that carries multi-device evidence (a
// library entry's jit with shardings, whose context stays unknown), then
// one traced with check_vma on (PAL105), then one under vmap (PAL108),
// then the shorter.
func preferReach(old, rs *reachState) bool {
	if (old.r.Expects == nil) != (rs.r.Expects == nil) {
		return old.r.Expects != nil // a path no raises-block catches
	}
	if old.r.TraceOnly != rs.r.TraceOnly {
		return old.r.TraceOnly
	}
	if old.multi.empty() != rs.multi.empty() {
		return old.multi.empty()
	}
	if old.r.CheckVMA != rs.r.CheckVMA {
		return rs.r.CheckVMA
	}
	if old.r.Vmapped != rs.r.Vmapped || old.r.VmapWide != rs.r.VmapWide {
		return rs.r.Vmapped && (rs.r.VmapWide || !old.r.Vmapped)
	}
	return len(rs.steps) < len(old.steps)
}

// reachState is a Reach as the interpreter records it: what quotes source
// text or has a position is kept as references into the IR (see text),
// and facts renders it.
type reachState struct {
	r                    Reach // Multi, Jit, ShardMap, UnmanualAt and Path left empty
	multi, jit, unmanual text
	steps                []pathStep // the witness path, nearest call first
}

type pathStep struct {
	file *ir.Summary
	site *ir.Expr
}

func (rs *reachState) render() Reach {
	r := rs.r
	r.Multi, r.Jit = rs.multi.String(), rs.jit.String()
	if t := rs.unmanual; t.site != nil {
		r.UnmanualAt = &Related{Location: Locate(t.file, t.site.Span), Message: "`" + t.String() + "` shards over `" + strings.Join(r.Unmanual, "`, `") + "`"}
	}
	if r.SMCall != nil {
		loc := Locate(r.SMFile, r.SMCall.Span)
		r.ShardMap = &loc
	}
	if len(rs.steps) > 0 { // none: nil, as a result loaded from the cache has it
		r.Path = make([]Related, 0, len(rs.steps))
	}
	for _, st := range rs.steps {
		r.Path = append(r.Path, Related{Location: Locate(st.file, st.site.Span), Message: "via `" + describeAt(st.file, st.site) + "`"})
	}
	return r
}

// reach folds the current context into the lowering lattice and captures
// the witness path.
func (in *interp) reach() *reachState {
	c := in.cur
	rs := &reachState{jit: c.Jit}
	r := &rs.r
	r.Bound, r.BoundAny = c.Bound, c.BoundAny
	r.TraceOnly = c.TraceOnly
	r.PmapLegacy, r.PmapMerged = c.PmapLegacy, c.PmapMerged
	r.Vmapped = c.Vmapped && !c.ExpectRaise
	r.VmapWide = r.Vmapped && c.VmapWide
	// Under pytest.raises / assertRaises the failure is what the test wants.
	r.CheckVMA = c.Kind == ctxShardMap && c.VMA == vmaOn && !c.ExpectRaise
	if c.ExpectRaise {
		r.Expects = c.Expects
	}
	switch c.Kind {
	case ctxPlain:
		r.Kind = lowering.CtxEagerSingle
		multi := c.Multi
		if multi.empty() && !c.Traced && c.Mesh != nil && !c.MeshLegacy && c.Mesh.Devices != 1 {
			// An eager op under jax.set_mesh runs as a jit over the
			// context mesh, as a jitted call there does (call.go).
			multi = text{lit: "a context mesh (jax.set_mesh), called eagerly"}
		}
		if !multi.empty() {
			r.Kind, rs.multi = lowering.CtxJitMulti, multi
			r.ExplicitMesh = c.Mesh != nil && c.Mesh.Explicit || c.ExplicitSharded
		}
	case ctxShardMap:
		r.Kind = lowering.CtxShardMapFull
		if ok, missing := c.fullyManual(); !ok {
			r.Kind, r.Missing = lowering.CtxShardMapPartial, missing
		} else {
			r.InnerMissing = c.innerMissing()
		}
		if c.SM != nil && c.SM.File != nil && c.SM.Site != nil {
			r.SMCall, r.SMFile = c.SM.Site, c.SM.File
		}
		r.MeshAxes = c.MeshAxes
	case ctxPmap:
		r.Kind = lowering.CtxPmap
	default:
		r.Kind = lowering.CtxUnknown
		// A library entry's jit with shardings: the hint says so.
		rs.multi = c.Multi
		if len(c.Unmanual) > 0 {
			r.Unmanual, rs.unmanual = c.Unmanual, c.UnmanualWhy
		}
	}
	var last *ir.Expr
	for i := len(in.stack) - 1; i >= 0; i-- {
		f := in.stack[i]
		if f.site != nil && f.site == last {
			continue // a wrapper and the function it wraps share one call site
		}
		last = f.site
		if f.site != nil && f.file != nil {
			rs.steps = append(rs.steps, pathStep{f.file, f.site})
		} else if f.file != nil && i == 0 {
			r.Entry = f.what
		}
	}
	for _, f := range in.stack {
		if f.def != nil && r.JitDef == nil {
			if d := jitDecorator(f.def); d != nil {
				r.JitDef, r.JitDeco = f.def, d
			}
		}
	}
	if len(in.stack) > 0 && in.stack[0].what != "" && r.Entry == "" {
		r.Entry = in.stack[0].what
	}
	r.Library = len(in.stack) > 0 && in.stack[0].library
	return rs
}

// outerCall records on r the path's first call from its entry, with the
// meshes visible there (for fixes); done only for reaches that are kept,
// since listing a scope's names is not free.
func (in *interp) outerCall(r *Reach) {
	for _, f := range in.stack {
		if f.site != nil && f.file != nil && f.site.Kind == ir.ExCall {
			r.Outer = &OuterCall{Call: f.site, File: f.file, Meshes: visibleMeshes(f.env), Bound: f.env.bound}
			return
		}
	}
}

func describeAt(s *ir.Summary, e *ir.Expr) string {
	txt := string(s.Src[e.Span.Start:e.Span.End])
	for i := 0; i < len(txt); i++ {
		if txt[i] == '\n' || txt[i] == '\r' {
			txt = txt[:i] + "…"
			break
		}
	}
	if len(txt) > 60 {
		txt = txt[:57] + "…"
	}
	return txt
}

// facts exports the recorded kernel calls. A call whose contexts did not
// change since it was last rendered, in files none of which moved (and
// none of which had a body swapped in), keeps its fact: after a resume
// most records are the ones the entries before the resume point made, or
// the same ones, replayed.
func (in *interp) facts(moved map[*ir.Summary]bool) []*KernelCall {
	out := make([]*KernelCall, 0, len(in.order))
	for _, kc := range in.order {
		if !kc.renderedNow() || len(moved) > 0 && quotesMoved(kc, moved) {
			in.render(kc)
		}
		out = append(out, kc.rendered)
	}
	return out
}

func quotesMoved(kc *kernelCall, moved map[*ir.Summary]bool) bool {
	found := false
	eachFactFile(kc, func(s *ir.Summary) { found = found || moved[s] })
	return found
}

// factAt renders the i-th recorded kernel call (facts()[i]) again.
func (in *interp) factAt(i int) *KernelCall { return in.render(in.order[i]) }

// factFiles lists the summaries the i-th fact quotes or locates anything
// in: when one of them moves, the fact must be rendered again.
func (in *interp) factFiles(i int) []*ir.Summary { return factFiles(in.order[i]) }

func factFiles(kc *kernelCall) []*ir.Summary {
	var out []*ir.Summary
	eachFactFile(kc, func(s *ir.Summary) {
		if s != nil && !slices.Contains(out, s) { // a handful of files
			out = append(out, s)
		}
	})
	return out
}

// eachFactFile calls add with every summary kc's fact quotes or locates
// anything in (nil and repeats included).
func eachFactFile(kc *kernelCall, add func(*ir.Summary)) {
	add(kc.file)
	add(kc.k.File)
	for _, op := range kc.e.Ops {
		add(op.File)
	}
	add(kc.e.Lowering.barrierFile)
	for _, c := range kc.e.Calls {
		add(c.file)
	}
	configFiles(kc, add)
	for _, k := range kc.order {
		rs := kc.reaches[k]
		add(rs.r.SMFile)
		add(rs.multi.file)
		add(rs.jit.file)
		for _, st := range rs.steps {
			add(st.file)
		}
	}
}

// scratchGiven reports whether a kernel is declared with scratch buffers
// (pl.kernel's scratch_types, pallas_call's or core_map's scratch_shapes):
// given, not None and not a literal empty sequence.
func scratchGiven(kw map[string]value) bool {
	for _, name := range []string{"scratch_types", "scratch_shapes"} {
		v, ok := kw[name]
		if !ok || isNone(v) {
			continue
		}
		if s, ok := v.(*vSeq); ok && len(s.Items) == 0 {
			continue
		}
		return true
	}
	return false
}

// fact renders one kernel call.
func (in *interp) fact(kc *kernelCall) *KernelCall {
	e := kc.e
	f := &KernelCall{
		Site: firstLine(kc.file, kc.site.Span), Kernel: e.Name, Entry: kc.k.Entry, API: kc.k.API,
		Backend: e.Backend, Effects: e.Effects, Decl: Locate(kc.k.File, kc.k.Site.Span), MaybeComm: e.MaybeComm,
		Call: kc.site, File: kc.file, Meshes: kc.meshes, Bound: kc.scope.bound, OutArity: outArity(kc.k.Kw["out_shape"]),
		Lowering: e.Lowering.render(kc.k.Site, kc.k.File), OutStructs: outStructs(kc.k),
	}
	for _, op := range e.Ops {
		id, literal := deviceIDArg(op)
		f.Ops = append(f.Ops, OpFact{Location: Locate(op.File, op.Site.Span),
			Kind: op.Kind, API: op.API, IDForm: op.IDForm, Axes: op.Axes,
			NTuple: op.NTuple, NKeys: op.NKeys, Logical: op.Logical, UnknownAxis: op.UnknownAxis, ID: id, LiteralDict: literal})
	}
	if axes, known := kernelLocalAxes(kc.k); known && kc.k.Entry != "pallas_call" {
		f.CoreAxes = axes
	}
	for _, op := range e.Sizes {
		f.SizeOps = append(f.SizeOps, OpFact{Location: Locate(op.File, op.Site.Span), Kind: op.Kind, API: op.API, Axes: op.Axes})
	}
	for _, k := range kc.order {
		if r := kc.reaches[k].render(); r.Expects != nil {
			f.ExpectReaches = append(f.ExpectReaches, r)
		} else {
			f.Reaches = append(f.Reaches, r)
		}
	}
	f.Config, f.BodyCalls = kernelConfig(kc), renderBodyCalls(e.Calls) // blockspec.go
	f.Scratch = scratchGiven(kc.k.Kw)
	return f
}

// visibleMeshes lists the names bound to meshes in env's scope chain,
// innermost scope first (sorted by name within a scope). It runs for every
// kernel call the analysis records, so it touches only mesh values.
func visibleMeshes(env *scope) []MeshRef {
	seen := map[string]bool{}
	var out []MeshRef
	for e := env; e != nil; e = e.parent {
		var here []MeshRef
		e.each(func(name string, v value) {
			if seen[name] {
				return
			}
			switch v := v.(type) {
			case *vMesh:
				here = append(here, MeshRef{Name: name, Axes: v.Axes})
			case *vUnknown:
				if name == "mesh" || strings.HasSuffix(name, "_mesh") {
					here = append(here, MeshRef{Name: name})
				}
			}
		})
		sort.Slice(here, func(i, j int) bool { return here[i].Name < here[j].Name })
		for _, m := range here {
			seen[m.Name] = true
		}
		out = append(out, here...)
	}
	return out
}

// bound reports whether name is bound anywhere in the scope chain.
func (e *scope) bound(name string) bool {
	_, ok := e.lookup(name)
	return ok
}

func outArity(v value) int {
	if s, ok := v.(*vSeq); ok {
		return len(s.Items)
	}
	return 0
}

// jitDecorator returns def's decorator that is jax.jit, jax.jit(...) or
// functools.partial(jax.jit, ...), resolved through its file's imports.
func jitDecorator(def *ir.FuncDef) *ir.Expr {
	isJit := func(e *ir.Expr) bool {
		for _, r := range def.File.Refs {
			if r.Kind == ir.RefExpr && r.Span == e.Span {
				api, ok := lowering.Lookup(r.Qual)
				return ok && api.Role == lowering.RoleJit
			}
		}
		return false
	}
	for _, d := range def.Decorators {
		switch {
		case isJit(d):
			return d
		case d.Kind == ir.ExCall && isJit(d.X):
			return d
		case d.Kind == ir.ExCall && len(d.Args) > 0 && isJit(d.Args[0]):
			return d // functools.partial(jax.jit, ...)
		}
	}
	return nil
}
