package analysis

import (
	"maps"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// args is one call's evaluated arguments. Opaque is set when a *spread or
// **spread could not be expanded, so unfilled parameters are Unknown rather
// than their defaults.
type args struct {
	pos    []value
	kw     map[string]value
	opaque bool
}

func (in *interp) evalCall(env *scope, e *ir.Expr) value {
	fn := in.eval(env, e.X)
	var a args // a.kw is allocated by the first keyword: most calls have none
	for _, x := range e.Args {
		if x.Kind == ir.ExStarred {
			if s, ok := in.eval(env, x.X).(*vSeq); ok {
				a.pos = append(a.pos, s.Items...)
			} else {
				a.opaque = true
			}
			continue
		}
		a.pos = append(a.pos, in.eval(env, x))
	}
	if len(e.Kw()) > 0 {
		a.kw = make(map[string]value, len(e.Kw()))
	}
	for _, kw := range e.Kw() {
		v := in.eval(env, kw.Value)
		if kw.Name != "" {
			a.kw[kw.Name] = v
			continue
		}
		if d, ok := v.(*vDict); ok {
			for i, k := range d.Keys {
				if s, ok := constStr(k); ok {
					a.kw[s] = d.Items[i]
				} else {
					a.opaque = true
				}
			}
			a.opaque = a.opaque || d.Open
		} else {
			a.opaque = true
		}
	}
	saved := in.env
	in.env = env
	v := in.call(fn, a, e)
	in.env = saved
	return v
}

// call invokes an abstract callable at site.
func (in *interp) call(fn value, a args, site *ir.Expr) value {
	if !in.tick() {
		return unknown
	}
	switch f := fn.(type) {
	case *vUnion:
		var out value
		for _, alt := range f.Alts {
			out = join(out, in.call(alt, a, site))
		}
		return out
	case *vFunc:
		return in.callFunc(f, a, site)
	case *vPartial:
		m := args{pos: append(append([]value{}, f.Args...), a.pos...), kw: map[string]value{}, opaque: a.opaque}
		for k, v := range f.Kw {
			m.kw[k] = v
		}
		for k, v := range a.kw {
			m.kw[k] = v
		}
		return in.call(f.Fn, m, site)
	case *vClass:
		return in.instantiate(f, a, site)
	case *vInstance:
		if m := in.getattr(f, "__call__"); !isUnknown(m) {
			return in.call(m, a, site)
		}
	case *vPallas:
		in.kernelCalled(f.K, site, &a)
	case *vBatched:
		in.batched++
		v := in.callBinder(f, a, site)
		in.batched--
		return v
	case *vShardMapped:
		in.shardMapApplied(f.Spec, a, site)
		in.smEager = append(in.smEager, in.cur.Kind == ctxPlain && !in.cur.Traced)
		defer func() { in.smEager = in.smEager[:len(in.smEager)-1] }()
		return in.withCtx(in.cur.enterShardMap(f.Spec), site, "shard_map", func() value { return in.call(f.Fn, a, site) })
	case *vJitted:
		return in.callJitted(f, a, site)
	case *vStaged:
		return in.callStaged(f, a, site)
	case *vParamTest:
		return in.callParamTest(f, a, site)
	case *vPmapped:
		c := &spmdCtx{Kind: ctxPmap, Mesh: in.cur.Mesh, TraceOnly: in.cur.TraceOnly}
		c.PmapLegacy, c.PmapMerged = in.pmapMerge()
		if in.cur.Kind == ctxUnknown || in.cur.Kind == ctxKernel {
			c.Kind = in.cur.Kind
		}
		return in.withCtx(c, site, "pmap", func() value { return in.call(f.Fn, a, site) })
	case *vDeferred:
		for _, g := range f.Fns {
			in.call(g, a, site)
		}
	case *vCustom:
		out := in.call(f.Fn, a, site)
		for _, r := range f.Rules {
			in.call(r, args{opaque: true}, site)
		}
		return out
	case *vShardMapFactory:
		if len(a.pos) > 0 {
			return &vShardMapped{Fn: a.pos[0], Spec: f.Spec}
		}
	case *vJitFactory:
		if len(a.pos) > 0 {
			return &vJitted{Fn: a.pos[0], Multi: f.Multi, Unmanual: f.Unmanual, UnmanualSyms: f.UnmanualSyms, Site: site, Describe: quoted(in.file, site, true)}
		}
	case *vKernelFactory:
		return in.applyKernelFactory(f, a, site)
	case *vMethod:
		return in.callMethod(f, a, site)
	case *vExternal:
		return in.callAPI(f.Qual, a, site)
	case *vExtCall:
		return in.callExtResult(f, a, site)
	}
	if in.cur.Kind == ctxKernel {
		in.noteOpaqueKernelCall(fn, site)
		in.callFunctionArgs(a, site)
		return unknown
	}
	// An unknown callee: keep what it was given, like an opaque external.
	return in.opaque("?", a, site)
}

// callFunctionArgs calls the workspace functions among an opaque callee's
// arguments in the current context: inside kernels, control-flow helpers
// (pl.when, lax.fori_loop, user wrappers of them) run their bodies.
func (in *interp) callFunctionArgs(a args, site *ir.Expr) {
	for _, v := range a.pos {
		if isCallable(v) {
			in.call(v, args{opaque: true}, site)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.kw)) {
		if v := a.kw[k]; isCallable(v) {
			in.call(v, args{opaque: true}, site)
		}
	}
}

func isCallable(v value) bool {
	switch v.(type) {
	case *vFunc, *vPartial, *vPallas, *vShardMapped, *vJitted, *vDeferred, *vCustom, *vUnion, *vBatched:
		return true
	}
	return false
}

func (in *interp) callJitted(f *vJitted, a args, site *ir.Expr) value {
	c := *in.cur
	c.cachedKey = "" // the copy will change
	c.Traced = true
	if c.Kind == ctxPlain || c.Kind == ctxUnknown {
		if c.Jit.empty() {
			c.Jit = f.Describe
		}
		if f.Multi != "" && c.Multi.empty() {
			c.Multi = text{lit: f.Multi}
		}
		for _, v := range append(append([]value{}, a.pos...), mapValues(a.kw)...) {
			if s, ok := v.(*vShardedArray); ok {
				if c.Multi.empty() {
					c.Multi = s.Desc
				}
				c.ExplicitSharded = c.ExplicitSharded || s.Explicit
			}
		}
		if c.Multi.empty() && c.Mesh != nil && !c.MeshLegacy && c.Mesh.Devices != 1 {
			c.Multi = text{lit: "a context mesh (jax.set_mesh)"}
		}
	}
	return in.withCtx(c.withUnmanual(f.Unmanual, f.UnmanualSyms, f.Describe), site, "jit", func() value { return in.call(f.Fn, a, site) })
}

// callStaged lowers or traces a function without running it: the kernel
// calls it reaches are recorded as a call would record them, those of a
// trace in a trace-only context (only trace-time errors).
func (in *interp) callStaged(s *vStaged, a args, site *ir.Expr) value {
	if s.Bound != nil {
		a = *s.Bound
	}
	run := func() value {
		if s.J != nil {
			return in.callJitted(s.J, a, site)
		}
		return in.call(s.Fn, a, site)
	}
	if s.Lower {
		run()
		return unknown // a Lowered or an Exported: what follows (.compile()) is opaque
	}
	c := *in.cur
	c.cachedKey = "" // the copy will change
	c.TraceOnly = true
	in.withCtx(&c, site, "trace", run)
	if s.Traced {
		return &vStaged{J: s.J, Fn: s.Fn, Lower: true, Bound: &a}
	}
	return unknown
}

// staged wraps fn for a staging API: under its own jit when it is one.
func staged(fn value, lower bool) *vStaged {
	if j, ok := fn.(*vJitted); ok {
		return &vStaged{J: j, Lower: lower}
	}
	return &vStaged{Fn: fn, Lower: lower}
}

func mapValues(m map[string]value) []value {
	out := make([]value, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

// withCtx runs f in context c, with a frame for the witness path.
func (in *interp) withCtx(c *spmdCtx, site *ir.Expr, what string, f func() value) value {
	if len(in.stack) >= maxStack {
		return unknown
	}
	saved := in.cur
	in.stack = append(in.stack, &frame{site: site, file: in.file, what: what, ctx: c, env: in.env})
	in.cur = c
	v := f()
	in.cur = saved
	in.stack = in.stack[:len(in.stack)-1]
	return v
}

// describeCall quotes a call site for messages: "jax.jit(step, in_shardings=...)"
// reads best as "jax.jit(step, …)".
func describeCall(s *ir.Summary, site *ir.Expr) string {
	txt := s.Text(site.Span)
	if site.Kind == ir.ExCall && len(site.Args) > 0 {
		txt = s.Text(site.X.Span) + "(" + s.Text(site.Args[0].Span)
		if len(site.Args) > 1 || len(site.Kw()) > 0 {
			txt += ", …"
		}
		txt += ")"
	}
	if i := strings.IndexAny(txt, "\r\n"); i >= 0 {
		txt = txt[:i] + "…"
	}
	if len(txt) > 60 {
		txt = txt[:57] + "…"
	}
	return txt
}
