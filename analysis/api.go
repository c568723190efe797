package analysis

import (
	"maps"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// vNonNone is a value known to exist (an array, a number computed by
// arithmetic, the result of a JAX call) but nothing more. Traced: it is
// known to be a traced JAX value (lax.axis_index, pl.program_id, or
// arithmetic on one), so Python operators on it bind jnp primitives; Int:
// a traced signed integer (those sources, and +, -, *, //, % of them with
// ints).
type vNonNone struct{ Traced, Int bool }

func (*vNonNone) isValue() {}

var (
	nonNone     value = &vNonNone{}
	tracedValue value = &vNonNone{Traced: true}
	tracedInt   value = &vNonNone{Traced: true, Int: true}
)

// identity is the pseudo-API for decorators that return their argument.
const identity = "pallas-ls.identity"

// callAPI gives a call of an external name its JAX meaning (lowering's
// role table); anything else is opaque.
func (in *interp) callAPI(qual string, a args, site *ir.Expr) value {
	switch qual {
	case "functools.partial":
		if len(a.pos) == 0 {
			return unknown
		}
		return &vPartial{Fn: a.pos[0], Args: a.pos[1:], Kw: a.kw}
	case "functools.wraps", "functools.update_wrapper":
		return &vExternal{Qual: identity}
	case identity:
		return first(a)
	case "builtins.dict":
		return dictCall(a)
	case "jax.config.update":
		in.jaxConfigUpdate(a)
		return unknown
	case "jax.device_count", "jax.local_device_count":
		if in.cur != nil && in.cur.OneDevice {
			return &vConst{C: ir.Const{Kind: ir.ConstInt, I: 1}}
		}
	case "jax.devices", "jax.local_devices":
		if in.cur != nil && in.cur.OneDevice && len(a.pos) == 0 && len(a.kw) == 0 {
			return &vSeq{Items: []value{nonNone}}
		}
	case "builtins.float", "builtins.int", "builtins.bool":
		if len(a.pos) == 1 {
			in.eagerRead(a.pos[0], site)
		}
		return in.opaque(qual, a, site)
	case "builtins.callable":
		if len(a.pos) == 1 {
			if b, ok := in.isCallable(a.pos[0]); ok {
				return boolConst(b)
			}
		}
		return unknown
	case "builtins.isinstance":
		if len(a.pos) == 2 {
			if b, ok := isInstanceOf(a.pos[0], a.pos[1]); ok {
				return boolConst(b)
			}
		}
		return unknown
	case "builtins.getattr":
		if len(a.pos) >= 2 {
			if s, ok := constStr(a.pos[1]); ok {
				if len(a.pos) == 2 {
					return in.getattrAt(a.pos[0], s, site)
				}
				return in.getattr(a.pos[0], s)
			}
		}
		return unknown
	}
	api, ok := lowering.Lookup(qual)
	if !ok {
		if _, owner, ok2 := lowering.LookupPrefix(qual); ok2 && owner != "" {
			in.noteBackend(qual)
		}
		in.noteMarker(qual)
		return in.opaque(qual, a, site)
	}
	in.noteBackend(api.Name)
	in.noteBarrier(api.Name, site)
	switch api.Role {
	case lowering.RolePallasCall:
		return in.pallasCall(api.Name, a, site)
	case lowering.RoleKernelEntry:
		// pl.kernel(body, ...), pl.kernel(body=...), or the MPMD form
		// pl.kernel(body=[f, g], mesh=[m1, m2]); without a body it is a
		// decorator factory.
		if body := argAt(a, 0, "body"); isKernelBody(body) {
			k := in.newKernel(api.Name, "kernel", body, a.kw, site)
			k.Out = argAt(a, 1, "out_type")
			return &vPallas{K: k}
		}
		return &vKernelFactory{Site: site, Kw: a.kw, API: api.Name}
	case lowering.RoleKernelOp:
		in.kernelCalled(in.kernelOp(api.Name, a, site), site, &a)
		return unknown
	case lowering.RoleKernelOpFactory:
		return &vPallas{K: in.kernelOp(api.Name, args{}, site)}
	case lowering.RoleCoreMap:
		kw := map[string]value{"mesh": first(a)}
		for k, v := range a.kw {
			kw[k] = v
		}
		return &vKernelFactory{Site: site, Kw: kw, CoreMap: true, API: api.Name}
	case lowering.RoleShardMap, lowering.RoleSmap:
		return in.shardMap(api, a, site)
	case lowering.RolePmap:
		if f := first(a); !isUnknown(f) {
			return &vPmapped{Fn: f, Site: site}
		}
	case lowering.RoleJit:
		multi := shardingEvidence(a.kw)
		un, syms := shardingAxes(a.kw)
		if f := first(a); !isUnknown(f) {
			return &vJitted{Fn: f, Multi: multi, Unmanual: un, UnmanualSyms: syms, Site: site, Describe: quoted(in.file, site, true)}
		}
		return &vJitFactory{Multi: multi, Unmanual: un, UnmanualSyms: syms}
	case lowering.RoleTransparent:
		return in.transparent(api.Name, a, site)
	case lowering.RoleRemoteComm:
		return in.remoteComm(api.Name, a, site)
	case lowering.RoleAxisIndex:
		in.axisIndex(a, site)
		in.collective(api.Name, a, site)
		return tracedInt
	case lowering.RoleAxisSize:
		in.collective(api.Name, a, site)
		if in.cur.Kind == ctxKernel && in.cur.Scan != nil {
			// One op per name, a tuple's too (the size is their product,
			// and JAX looks the names up in order: the first unbound one
			// fails).
			names, _ := strList(argAt(a, 0, "axis_name"))
			if len(names) > 0 && len(in.cur.Scan.sizes) == 0 {
				in.cur.Scan.sizeFirst = len(in.cur.Scan.ops)
			}
			in.cur.Scan.sizes = append(in.cur.Scan.sizes, names...)
			for _, name := range names {
				in.cur.Scan.sizeOps = append(in.cur.Scan.sizeOps, &commOp{Kind: "axis_size", API: api.Name,
					Axes: []string{name}, File: in.file, Site: site})
			}
		}
	case lowering.RoleCollective:
		in.collective(api.Name, a, site)
		return in.opaque(api.Name, a, site)
	case lowering.RoleAxisBinder:
		return in.axisBinder(api.Name, a)
	case lowering.RoleMesh:
		return meshValue(api.Name, a)
	case lowering.RoleCoreMesh:
		return coreMeshValue(a)
	case lowering.RoleShardingEvidence:
		return in.shardingCall(api.Name, a, site)
	case lowering.RoleCustomPartitioning:
		if f := first(a); !isUnknown(f) {
			return &vCustom{Fn: f, Part: true}
		}
	case lowering.RoleExport, lowering.RoleTraceWrap:
		if f := first(a); !isUnknown(f) {
			if env, ok := a.kw["axis_env"]; ok && !isNone(env) {
				f = axisEnvBinder(f, env) // make_jaxpr(f, axis_env=[("i", 4)])
			}
			return staged(f, api.Role == lowering.RoleExport)
		}
	case lowering.RoleNewRef:
		in.newRef(api.Name, a, site)
	case lowering.RoleTreeMap:
		return in.treeMap(api.Name, a, site)
	case lowering.RoleTraceCall:
		if f := first(a); !isUnknown(f) && len(a.pos) > 0 {
			in.callStaged(staged(f, false), args{pos: a.pos[1:], kw: a.kw, opaque: a.opaque}, site)
			return unknown
		}
	case lowering.RoleSelfWrapping:
		return nonNone
	case lowering.RoleSetMesh:
		if m, ok := first(a).(*vMesh); ok && site != nil {
			c := *in.cur
			c.cachedKey = "" // the copy will change
			c.Mesh = m
			in.cur = &c
		}
	}
	return &vExtCall{Qual: api.Name, Args: a.pos, Kw: a.kw, Site: site, File: in.file}
}

func first(a args) value {
	if len(a.pos) > 0 {
		return a.pos[0]
	}
	if f, ok := a.kw["f"]; ok {
		return f
	}
	if f, ok := a.kw["fun"]; ok {
		return f
	}
	return unknown
}

// opaque is a call of an unknown external: its result remembers the call;
// functions handed to it run when the result is called (or now, in
// kernels). Calling them at wrap time instead could run a body in the
// wrong context (a decorator applied at module level, say).
func (in *interp) opaque(qual string, a args, site *ir.Expr) value {
	if v, ok := foldCall(qual, a); ok { // arith.go
		return v
	}
	if in.cur.Kind == ctxKernel {
		in.bodyCall(qual, site) // blockspec.go
		in.callFunctionArgs(a, site)
	}
	return &vExtCall{Qual: qual, Args: a.pos, Kw: a.kw, Site: site, File: in.file}
}

// transparent handles wrappers and control flow that inherit the caller's
// context: lax control flow and pl.run_scoped call their bodies now;
// pl.when / pl.loop are decorator factories; checkpoint, vmap, named_call
// and friends return their function (calling it later runs it).
func (in *interp) transparent(name string, a args, site *ir.Expr) value {
	switch {
	case strings.HasPrefix(name, "jax.lax."):
		return in.traced(func() value { return in.callBodies(a, site, strings.HasSuffix(name, ".fori_loop")) })
	case strings.HasSuffix(name, ".run_scoped"):
		return in.callBodies(a, site, false)
	case strings.HasSuffix(name, ".when") || strings.HasSuffix(name, ".loop"):
		return &vExtCall{Qual: name, Args: a.pos, Kw: a.kw, Site: site}
	case strings.HasSuffix(name, "emit_pipeline") || strings.HasSuffix(name, "emit_pipeline_with_allocations"):
		return &vDeferred{Fns: []value{first(a)}}
	case name == "jax.custom_vjp" || name == "jax.custom_jvp":
		if f := first(a); !isUnknown(f) {
			return &vCustom{Fn: f}
		}
		return &vExternal{Qual: name}
	case name == "jax.named_scope":
		return &vExternal{Qual: identity}
	}
	if f := first(a); !isUnknown(f) {
		return f
	}
	// A decorator factory such as jax.named_call(name=...) or
	// jax.checkpoint(policy=...): the result returns its argument.
	return &vExternal{Qual: identity}
}

// callBodies calls the functions among a's arguments (and in a sequence
// argument, lax.switch's branches) now, in the current context.
func (in *interp) callBodies(a args, site *ir.Expr, indexed bool) value {
	var out value
	body := args{opaque: true}
	if indexed {
		body.pos = []value{nonNone} // fori_loop's body takes the loop index: an int
	}
	for _, v := range append(append([]value{}, a.pos...), mapValues(a.kw)...) {
		for _, alt := range alts(v) {
			if isCallable(alt) {
				out = in.call(alt, body, site)
			}
		}
		if s, ok := v.(*vSeq); ok { // lax.switch(index, [f, g], x)
			for _, f := range s.Items {
				if isCallable(f) {
					in.call(f, args{opaque: true}, site)
				}
			}
		}
	}
	if out == nil {
		out = unknown
	}
	return out
}

// callExtResult calls the result of an external call: `pl.when(c)(body)`,
// `pl.loop(0, n)(body)`, or an opaque factory's product.
func (in *interp) callExtResult(f *vExtCall, a args, site *ir.Expr) value {
	switch {
	case strings.HasSuffix(f.Qual, ".when") || strings.HasSuffix(f.Qual, ".loop"):
		if body := first(a); isCallable(body) {
			b := args{opaque: true}
			if strings.HasSuffix(f.Qual, ".loop") {
				b.pos = []value{nonNone} // pl.loop's body takes the index
			}
			in.call(body, b, site)
		}
		return unknown
	}
	// The product of an opaque wrapper: calling it runs the functions
	// the wrapper was given (a decorator's wrapped function). A wrapper
	// from an unknown library may itself run them under shard_map, so
	// there the context becomes Unknown (never an error); known
	// context-neutral libraries (functools, pytest, absl parameterized,
	// JAX's own non-SPMD transforms) keep the caller's.
	var out value
	fns := 0
	for _, v := range append(append([]value{}, f.Args...), mapValues(f.Kw)...) {
		if !isCallable(v) {
			continue
		}
		fns++
		if in.cur.Kind == ctxKernel || contextNeutral(f.Qual) && !takesSpecs(f.Kw) {
			out = in.call(v, a, site)
			continue
		}
		c := &spmdCtx{Kind: ctxUnknown, Mesh: in.cur.Mesh, TraceOnly: in.cur.TraceOnly}
		out = in.withCtx(c, site, f.Qual, func() value { return in.call(v, a, site) })
	}
	if fns == 1 {
		return out
	}
	return in.opaque(f.Qual+"()", a, site)
}

func (in *interp) callMethod(m *vMethod, a args, site *ir.Expr) value {
	switch r := m.Recv.(type) {
	case *vRemoteCopy:
		if m.Name == "start" {
			in.recordOp(r.Op)
		}
		return unknown
	case *vCustom:
		switch m.Name {
		case "defvjp", "defjvp", "defjvps":
			r.Rules = append(r.Rules, a.pos...)
		case "def_partition":
			in.defPartition(a, site)
		}
		return unknown
	case *vExtCall:
		if eagerReads[m.Name] {
			in.eagerRead(r, site)
		}
		return in.opaque(r.Qual+"()."+m.Name, a, site)
	case *vDict:
		return dictMethod(r, m.Name, a)
	}
	return unknown
}

// dictCall is dict(mapping, **kw) and dict(**kw): the keywords, over the
// literal dict it copies; anything else it copies makes it open.
func dictCall(a args) value {
	d := &vDict{Open: a.opaque || len(a.pos) > 1}
	if len(a.pos) == 1 {
		src, ok := a.pos[0].(*vDict)
		if !ok {
			d.Open = true
		} else {
			d.Open = d.Open || src.Open
			for i, k := range src.Keys {
				if s, ok := constStr(k); !ok || a.kw[s] == nil {
					d.Keys, d.Items = append(d.Keys, k), append(d.Items, src.Items[i])
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.kw)) {
		d.Keys = append(d.Keys, &vConst{C: ir.Const{Kind: ir.ConstStr, S: k}})
		d.Items = append(d.Items, a.kw[k])
	}
	return d
}

// dictMethod is d.get(key[, default]) and d.copy() on a literal dict.
func dictMethod(d *vDict, name string, a args) value {
	switch name {
	case "copy":
		if len(a.pos) == 0 {
			return d
		}
	case "get":
		if len(a.pos) == 0 || len(a.pos) > 2 || a.opaque {
			return unknown
		}
		k, ok := constStr(a.pos[0])
		if !ok {
			return unknown
		}
		// A key the display does not list may have been stored since
		// (d["k"] = v is not followed): Unknown, not the default.
		if v, ok := d.lookup(k); ok {
			return v
		}
	}
	return unknown
}

// defPartition runs custom_partitioning's partition function, and the
// lowering functions it returns, in a fully manual context.
func (in *interp) defPartition(a args, site *ir.Expr) {
	p := a.kw["partition"]
	if p == nil {
		p = first(a)
	}
	if !isCallable(p) {
		return
	}
	sp := &smSpec{Site: site, File: in.file, API: "custom_partitioning", AllManual: true}
	in.withCtx(in.cur.enterShardMap(sp), site, "custom_partitioning", func() value {
		r := in.call(p, args{opaque: true}, site)
		if s, ok := r.(*vSeq); ok {
			for _, it := range s.Items {
				if isCallable(it) {
					in.call(it, args{opaque: true}, site)
				}
			}
		}
		return r
	})
}

// noteBackend records backend evidence of a qualified name inside kernels.
func (in *interp) noteBackend(qual string) {
	if in.cur.Kind != ctxKernel || in.cur.Scan == nil {
		return
	}
	switch backendOfQual(qual) {
	case lowering.BackendTPU:
		in.cur.Scan.tpu = true
	case lowering.BackendGPU:
		in.cur.Scan.gpu = true
	}
}

func backendOfQual(q string) lowering.Backend {
	if api, _, ok := lowering.LookupPrefix(q); ok && api.Backend != lowering.BackendUnknown {
		return api.Backend
	}
	switch {
	case strings.HasPrefix(q, "jax.experimental.pallas.tpu"), strings.HasPrefix(q, "jax._src.pallas.mosaic."):
		return lowering.BackendTPU
	case strings.HasPrefix(q, "jax.experimental.pallas.mosaic_gpu"), strings.HasPrefix(q, "jax.experimental.pallas.triton"),
		strings.HasPrefix(q, "jax.experimental.pallas.gpu"), strings.HasPrefix(q, "jax._src.pallas.mosaic_gpu"),
		strings.HasPrefix(q, "jax._src.pallas.triton"):
		return lowering.BackendGPU
	}
	return lowering.BackendUnknown
}

func isSetMesh(qual string) bool {
	api, ok := lowering.Lookup(qual)
	return ok && api.Role == lowering.RoleSetMesh
}

// contextNeutralPrefixes are libraries whose wrappers call the wrapped
// function in the caller's SPMD context.
var contextNeutralPrefixes = []string{
	"jax.", "functools.", "builtins.", "typing.", "abc.", "contextlib.", "dataclasses.",
	"pytest.", "absl.testing.", "parameterized.", "unittest.", identity,
}

// takesSpecs reports whether a wrapper is given a mesh or shard_map's
// specs (jax.experimental.roofline.roofline(f, mesh=, in_specs=,
// out_specs=)): one not modelled may run f under a shard_map of its own,
// even in a context-neutral library.
func takesSpecs(kw map[string]value) bool {
	for _, k := range []string{"mesh", "in_specs", "out_specs", "axis_names"} {
		if _, ok := kw[k]; ok {
			return true
		}
	}
	return false
}

func contextNeutral(qual string) bool {
	for _, p := range contextNeutralPrefixes {
		if strings.HasPrefix(qual, p) || qual+"." == p {
			return true
		}
	}
	return false
}

// jaxConfigUpdate records `jax.config.update(name, value)` with a literal
// name. JAX's options are process-wide, and each entry (a script, a test
// file) runs in a process of its own, so the value holds for the calls
// that follow in the entry that set it (journaled like an attribute, so a
// resumed run takes it back).
func (in *interp) jaxConfigUpdate(a args) {
	name, ok := constStr(argAt(a, 0, "name"))
	if !ok {
		return
	}
	v := argAt(a, 1, "val")
	if v == nil {
		v = unknown
	}
	in.h.journal.attrs.set(mapPlace[string, value](in.config), name, &vConfigSet{V: v, Entry: in.h.entryNo})
}

// vConfigSet is a jax.config option's value and the entry that set it.
type vConfigSet struct {
	V     value
	Entry int32
}

func (*vConfigSet) isValue() {}

// pmapMerge reports whether the running entry set jax_pmap_shmap_merge
// to a literal False (legacy) or True (merged) by now.
func (in *interp) pmapMerge() (legacy, merged bool) {
	set, ok := in.config[lowering.PmapMergeOption].(*vConfigSet)
	if !ok || set.Entry != in.h.entryNo {
		return false, false
	}
	c, ok := set.V.(*vConst)
	if !ok || c.C.Kind != ir.ConstBool {
		return false, false
	}
	return !c.C.B, c.C.B
}
