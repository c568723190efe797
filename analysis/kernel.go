package analysis

import (
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// kernelDecl is one kernel definition site: a pl.pallas_call(...),
// pl.kernel(...) or pl.core_map(...) with its body and keywords.
type kernelDecl struct {
	Site  *ir.Expr
	File  *ir.Summary
	API   string
	Entry string // "pallas_call", "kernel", "core_map"
	Body  value
	Kw    map[string]value
	// Out is out_shape (pallas_call) or out_type (pl.kernel), given by
	// keyword or position; nil when absent.
	Out value
	// Op: a kernel JAX bundles (kernelOp); its body and configuration are
	// JAX's, not read here.
	Op bool
}

// commOp is one communicating operation found in a kernel body.
type commOp struct {
	Kind string // "remote DMA", "remote signal", "axis_index"
	API  string // qualified name called
	// IDForm is "dict", "tuple", "int" or "" (axis_index).
	IDForm  string
	Axes    []string // dict keys, or the axis_index axis
	Logical bool
	NTuple  int // elements of a MESH tuple id
	// NKeys is the number of entries of a dict id (a key may be a tuple
	// of names, so Axes can be longer); 0 when unknown.
	NKeys int
	// UnknownAxis is set when the axis names are not known statically.
	UnknownAxis bool
	File        *ir.Summary
	Site        *ir.Expr
	started     bool
}

// kernelScan collects what a kernel body does while it is evaluated.
type kernelScan struct {
	ops []*commOp
	// sizes are the literal axis names of lax.axis_size calls, and
	// sizeFirst how many axis_index ops were recorded before the first.
	sizes     []string
	sizeFirst int
	// sizeOps are those calls, in order (PAL104: an axis no mesh has).
	sizeOps []*commOp
	// bodyOps is how many ops the kernel bodies recorded; those after
	// come from BlockSpec index_maps.
	bodyOps  int
	tpu, gpu bool
	// barrierSite is the first get_barrier_semaphore call (kconfig.go).
	barrierSite *ir.Expr
	barrierFile *ir.Summary
	// read: the bodies were evaluated; opaque: the body called something
	// unknown (a parameter), which may do anything.
	read, opaque bool
	// markTPU, markGPU: the body calls APIs of a backend's modules that
	// the API table does not list (plgpu.copy_smem_to_gmem), kconfig.go.
	markTPU, markGPU bool
	calls            []bodyCall // blockspec.go
}

// kernelEffects is the verdict on one kernel declaration.
type kernelEffects struct {
	Name    string
	Backend lowering.Backend
	Effects lowering.Effects
	Ops     []*commOp // the communicating ones, in source order
	// Sizes are the lax.axis_size calls on names no core mesh or named
	// grid axis of the kernel binds.
	Sizes []*commOp
	// MaybeComm: communication over axes whose names are not known here.
	MaybeComm bool
	// Lowering is the kernel's lowering configuration (kconfig.go).
	Lowering loweringConfig
	// Calls are the external calls of the body (blockspec.go).
	Calls []bodyCall
}

func (in *interp) pallasCall(api string, a args, site *ir.Expr) value {
	body := first(a)
	if k, ok := a.kw["kernel"]; ok {
		body = k
	}
	k := in.newKernel(api, "pallas_call", body, a.kw, site)
	k.Out = argAt(a, 1, "out_shape")
	return &vPallas{K: k}
}

func (in *interp) newKernel(api, entry string, body value, kw map[string]value, site *ir.Expr) *kernelDecl {
	return &kernelDecl{Site: site, File: in.file, API: api, Entry: entry, Body: body, Kw: kw}
}

// kernelOp is the kernel a call of a JAX-bundled TPU op runs (a role
// kernel-op API such as flash_attention, or the callable a kernel-op
// factory such as make_splash_mha returns), declared at site: a Mosaic
// kernel that does not communicate (lowering/kernelops.go). Its only
// keyword is the call's interpret=, which the ops that take one pass on
// to their pallas_call.
func (in *interp) kernelOp(api string, a args, site *ir.Expr) *kernelDecl {
	k := in.newKernel(api, "pallas_call", nil, map[string]value{}, site)
	if v, ok := a.kw["interpret"]; ok {
		k.Kw["interpret"] = v
	}
	k.Op = true
	return k
}

// applyKernelFactory applies `@pl.kernel(...)` or `@pl.core_map(mesh)`
// to a body. core_map runs the body right away: the decoration is the call.
func (in *interp) applyKernelFactory(f *vKernelFactory, a args, site *ir.Expr) value {
	body := first(a)
	if !isCallable(body) {
		return unknown
	}
	k := &kernelDecl{Site: f.Site, File: in.file, API: f.API, Entry: "kernel", Body: body, Kw: f.Kw, Out: f.Kw["out_type"]}
	if f.CoreMap {
		k.Entry = "core_map"
		in.kernelCalled(k, f.Site, nil)
		return unknown
	}
	return &vPallas{K: k}
}

func (in *interp) remoteComm(api string, a args, site *ir.Expr) value {
	if in.cur.Kind != ctxKernel {
		return nonNone
	}
	op := &commOp{API: api, File: in.file, Site: site}
	var id, idType value
	switch {
	case strings.HasSuffix(api, "semaphore_signal"):
		op.Kind = "remote signal"
		id, idType = a.kw["device_id"], a.kw["device_id_type"]
	default:
		op.Kind = "remote DMA"
		id, idType = argAt(a, 4, "device_id"), argAt(a, 5, "device_id_type")
	}
	if id == nil || isNone(id) {
		return nonNone // local: no device id
	}
	if !classifyID(op, id, idType) {
		if op.IDForm != "dict" {
			return nonNone // nothing known of the id: never a verdict
		}
		// A dict id whose axis names are not literal (a parameter): it
		// communicates, but over which axes is unknown; only hints use it.
		op.UnknownAxis = true
	}
	switch {
	case strings.HasSuffix(api, "make_async_remote_copy"):
		return &vRemoteCopy{Op: op}
	}
	in.recordOp(op)
	return nonNone
}

func argAt(a args, i int, kw string) value {
	if v, ok := a.kw[kw]; ok {
		return v
	}
	if i < len(a.pos) {
		return a.pos[i]
	}
	return nil
}

// classifyID fills the device-id form; false when nothing is known of it.
func classifyID(op *commOp, id, idType value) bool {
	if ext, ok := idType.(*vExternal); ok && strings.HasSuffix(ext.Qual, ".LOGICAL") {
		op.Logical = true
	}
	switch v := id.(type) {
	case *vDict:
		if v.Open {
			return false // some keys unknown: so are the axes
		}
		op.IDForm, op.NKeys = "dict", len(v.Keys)
		for _, k := range v.Keys {
			names, ok := strList(k)
			if !ok {
				return false
			}
			op.Axes = append(op.Axes, names...)
		}
	case *vSeq:
		op.IDForm, op.NTuple = "tuple", len(v.Items)
	case *vUnion:
		// Alternatives (a loop over id forms, a branch): one verdict when
		// they all have the same form, over the axes of all of them.
		for i, alt := range v.Alts {
			t := &commOp{}
			if !classifyID(t, alt, idType) || i > 0 && (t.IDForm != op.IDForm || t.NTuple != op.NTuple) {
				op.IDForm, op.NTuple, op.Axes = "", 0, nil
				return false
			}
			if i > 0 && t.NKeys != op.NKeys {
				t.NKeys = 0 // dicts of different sizes: unknown
			}
			op.IDForm, op.NTuple, op.NKeys = t.IDForm, t.NTuple, t.NKeys
			for _, a := range t.Axes {
				if !slices.Contains(op.Axes, a) {
					op.Axes = append(op.Axes, a)
				}
			}
		}
	case *vExtCall:
		if v.Qual == "?" { // result of an unknown callee: may be None
			return false
		}
		op.IDForm = "int"
	case *vConst, *vNonNone:
		op.IDForm = "int"
	default:
		return false
	}
	return true
}

func (in *interp) axisIndex(a args, site *ir.Expr) {
	if in.cur.Kind != ctxKernel {
		return
	}
	// A tuple of names is one index over those axes, which JAX computes
	// from the last name to the first: Axes lists them in that order, so
	// Axes[0] is the name an unbound-axis error names.
	names, ok := strList(argAt(a, 0, "axis_name"))
	if !ok || len(names) == 0 {
		names, ok = []string{""}, false
	}
	slices.Reverse(names)
	in.recordOp(&commOp{Kind: "axis_index", API: "jax.lax.axis_index", Axes: names, UnknownAxis: !ok,
		File: in.file, Site: site})
}

func (in *interp) recordOp(op *commOp) {
	if in.cur.Kind != ctxKernel || in.cur.Scan == nil || op.started {
		return
	}
	op.started = true
	in.cur.Scan.ops = append(in.cur.Scan.ops, op)
}

// kernelEffects evaluates a kernel's body (with Unknown arguments, in
// the Kernel context) once, and classifies what it communicates.
func (in *interp) kernelEffects(k *kernelDecl) *kernelEffects {
	if e := in.effects[k]; e != nil {
		return e
	}
	e := &kernelEffects{Name: kernelName(k.Body)}
	in.h.journal.effects.add(k, e)
	scan := &kernelScan{}
	if k.Op {
		e.Name = k.API[strings.LastIndexByte(k.API, '.')+1:]
		scan.read = true
		in.classify(k, e, scan)
		return e
	}
	// A scan starts a stack of its own, so maxStack does not bound a
	// kernel body that (through shard_map, say) calls a kernel again:
	// past maxScans nested scans, a kernel's body is not read.
	if in.scans < maxScans {
		in.scans++
		saved := in.saveTop()
		in.cur, in.stack, in.file = &spmdCtx{Kind: ctxKernel, Scan: scan}, nil, k.File
		scan.read = true
		for _, body := range kernelBodies(k.Body) {
			if !isCallable(body) {
				scan.opaque = true
			}
			in.call(body, args{opaque: true}, k.Site)
		}
		scan.opaque = scan.opaque || in.stopped
		scan.bodyOps = len(scan.ops)
		for _, spec := range append(seqItems(k.Kw["in_specs"]), seqItems(k.Kw["out_specs"])...) {
			if c, ok := spec.(*vExtCall); ok && strings.HasSuffix(c.Qual, "BlockSpec") {
				if im := argAt(args{pos: c.Args, kw: c.Kw}, 1, "index_map"); im != nil && isCallable(im) {
					in.call(im, args{opaque: true}, k.Site)
				}
			}
		}
		in.restoreTop(saved)
		in.scans--
	}
	in.classify(k, e, scan)
	return e
}

func seqItems(v value) []value {
	switch v := v.(type) {
	case *vSeq:
		return v.Items
	case nil:
		return nil
	}
	return []value{v}
}

// isKernelBody reports whether v can be a kernel body: a callable, or a
// sequence of callables (the bodies of an MPMD pl.kernel, one per mesh).
func isKernelBody(v value) bool {
	if s, ok := v.(*vSeq); ok && len(s.Items) > 0 {
		for _, it := range s.Items {
			if !isCallable(it) {
				return false
			}
		}
		return true
	}
	return isCallable(v)
}

// kernelBodies lists the bodies of a kernel: its effects are those of
// all of them.
func kernelBodies(v value) []value {
	if s, ok := v.(*vSeq); ok {
		return s.Items
	}
	return []value{v}
}

func kernelName(v value) string {
	switch v := v.(type) {
	case *vSeq:
		names := make([]string, len(v.Items))
		for i, it := range v.Items {
			names[i] = kernelName(it)
		}
		return "[" + strings.Join(names, ", ") + "]"
	case *vFunc:
		return v.Def.Name
	case *vPartial:
		return kernelName(v.Fn)
	case *vBatched:
		return kernelName(v.Fn)
	case *vUnion:
		return kernelName(v.Alts[0])
	}
	return "?"
}
