package analysis

import (
	"maps"
	"slices"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// conventionalCoreAxes are the axis names Pallas TPU code uses for
// chip-local core meshes; with no core mesh in sight, a dict id naming only
// these is taken as intra-chip (jax-semantics §2: unknown is never an error).
var conventionalCoreAxes = map[string]bool{"core": true, "subcore": true, "tc": true, "sc": true, "vector_subcore": true, "scalar_subcore": true}

// classify turns the scan of a kernel body into lowering.Effects.
func (in *interp) classify(k *kernelDecl, e *kernelEffects, scan *kernelScan) {
	local := map[string]bool{}
	coreAxes, meshKnown := kernelLocalAxes(k)
	for _, a := range coreAxes {
		local[a] = true
	}
	grid := gridNames(k.Kw["grid"])
	if gs, ok := k.Kw["grid_spec"].(*vExtCall); ok {
		grid = append(grid, gridNames(argAt(args{pos: gs.Args, kw: gs.Kw}, 0, "grid"))...)
	}
	for _, g := range grid {
		local[g] = true
	}
	isDevice := func(axis string) bool {
		if local[axis] {
			return false
		}
		if k.Entry != "pallas_call" && (!meshKnown || coreAxes == nil) {
			// pl.kernel / core_map over a mesh we cannot read: its axis
			// names may all be core axes. Unknown is never an error.
			return false
		}
		return !(coreAxes == nil && conventionalCoreAxes[axis])
	}
	eff := &e.Effects
	eff.MeshKernel = k.Entry != "pallas_call"
	var logical, visible, bodyAxisIndex bool
	for i, op := range scan.ops {
		if op.UnknownAxis {
			e.MaybeComm = true
			continue
		}
		switch {
		case op.Kind == "axis_index":
			// A tuple mixing core and device axes is a device-axis index
			// too; JAX looks its names up in Axes' order, so the first
			// device axis is the one an unbound-axis error names.
			axis, ok := firstDevice(op.Axes, isDevice)
			if !ok {
				continue
			}
			eff.AxisIndexDeviceAxis = true
			bodyAxisIndex = bodyAxisIndex || i < scan.bodyOps || !scan.read
			if eff.AxisName == "" {
				eff.AxisName = axis
			}
			visible = true
		case op.IDForm == "dict":
			eff.AnyDictID = true
			dev := false
			for _, a := range op.Axes {
				dev = dev || isDevice(a)
			}
			if !dev {
				continue // intra-chip: core/subcore axes only
			}
			eff.DictDeviceID = true
			eff.SignalDictID = eff.SignalDictID || op.Kind == "remote signal"
			visible = true
		case op.Kind == "remote signal":
			eff.SignalDeviceID = true
			visible = true
			if !op.Logical {
				meshID(eff, op) // linearised with the mesh, like a DMA's
			}
		case op.Logical:
			logical = true
		default:
			meshID(eff, op)
		}
		if op.Kind == "remote DMA" {
			eff.RemoteDMA = true
		}
		e.Ops = append(e.Ops, op)
	}
	for _, op := range scan.sizeOps {
		if isDevice(op.Axes[0]) {
			e.Sizes = append(e.Sizes, op)
		}
	}
	eff.LogicalOnly = logical && !visible && !eff.MeshIntTupleID
	eff.AxisIndexMapOnly = eff.AxisIndexDeviceAxis && !bodyAxisIndex
	// lax.axis_size on a device axis before any device-axis axis_index:
	// tracing fails on it first.
	for _, name := range scan.sizes {
		if !isDevice(name) {
			continue
		}
		first := true
		for _, op := range scan.ops[:min(scan.sizeFirst, len(scan.ops))] {
			if _, dev := firstDevice(op.Axes, isDevice); op.Kind == "axis_index" && !op.UnknownAxis && dev {
				first = false
			}
		}
		if first {
			eff.AxisSizeDeviceAxis, eff.AxisName = true, name
		}
		break
	}
	eff.Interpret, eff.InterpretParams = interpretMode(k.Kw["interpret"])
	eff.Local = len(e.Ops) == 0
	e.Backend = in.kernelBackend(k, scan)
	e.Lowering = in.loweringConfigOf(k, scan)
	e.Calls = scan.calls
}

// meshID records a MESH-typed int or tuple device id and its length.
func meshID(eff *lowering.Effects, op *commOp) {
	eff.MeshIntTupleID = true
	if op.NTuple > 0 {
		eff.DeviceIDs = op.NTuple
	} else {
		eff.DeviceIDs = 1
	}
}

// gridNames reads named grid axes: grid=(("i", n), ("j", m)).
func gridNames(v value) []string {
	seq, ok := v.(*vSeq)
	if !ok {
		return nil
	}
	var out []string
	for _, it := range seq.Items {
		if pair, ok := it.(*vSeq); ok && len(pair.Items) == 2 {
			if s, ok := constStr(pair.Items[0]); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// interpretMode reads interpret=True / interpret=pltpu.InterpretParams(...)
// (literal values only).
func interpretMode(v value) (interp, params bool) {
	switch v := v.(type) {
	case *vConst:
		return v.C.Kind == ir.ConstBool && v.C.B, false
	case *vExtCall:
		if api, ok := lowering.Lookup(v.Qual); ok && api.Role == lowering.RoleInterpretParams {
			return true, true
		}
	}
	return false, false
}

// kernelBackend decides TPU or GPU from the kernel entry, its keywords and
// the APIs its body used (jax-semantics §2, end).
func (in *interp) kernelBackend(k *kernelDecl, scan *kernelScan) lowering.Backend {
	tpu, gpu := scan.tpu, scan.gpu
	switch backendOfQual(k.API) {
	case lowering.BackendGPU:
		gpu = true
	case lowering.BackendTPU:
		tpu = true
	}
	for _, key := range slices.Sorted(maps.Keys(k.Kw)) {
		switch valueBackend(k.Kw[key], 4) {
		case lowering.BackendTPU:
			tpu = true
		case lowering.BackendGPU:
			gpu = true
		}
		if key == "compiler_params" {
			if d, ok := k.Kw[key].(*vDict); ok {
				for _, kk := range d.Keys {
					if s, _ := constStr(kk); s == "mosaic" {
						tpu = true
					} else if s == "triton" || s == "mosaic_gpu" {
						gpu = true
					}
				}
			}
		}
	}
	switch {
	case gpu:
		return lowering.BackendGPU
	case tpu:
		return lowering.BackendTPU
	}
	return lowering.BackendUnknown
}

func valueBackend(v value, depth int) lowering.Backend {
	if depth < 0 {
		return lowering.BackendUnknown
	}
	var inner []value
	switch v := v.(type) {
	case *vExternal:
		return backendOfQual(v.Qual)
	case *vExtCall:
		if b := backendOfQual(v.Qual); b != lowering.BackendUnknown {
			return b
		}
		inner = append(v.Args, mapValues(v.Kw)...)
	case *vSeq:
		inner = v.Items
	case *vDict:
		inner = v.Items
	case *vCoreMesh:
		return lowering.BackendTPU
	}
	for _, x := range inner {
		if b := valueBackend(x, depth-1); b != lowering.BackendUnknown {
			return b
		}
	}
	return lowering.BackendUnknown
}

// kernelCoreAxes returns the axis names of a kernel's core mesh, or of
// all the meshes of an MPMD kernel. known is false when some mesh is not a
// core mesh the analysis recognises; axes is nil when some mesh's axis
// names are not known. A join of core meshes (`mesh = TensorCoreMesh(...)`
// in one branch, ScalarSubcoreMesh(...) in another) has the names of
// every alternative: a name none of them has is no core axis on any path.
func kernelCoreAxes(mesh value) (axes []string, known bool) {
	meshes := []value{mesh}
	if s, ok := mesh.(*vSeq); ok {
		meshes = s.Items
	}
	n := 0
	for _, m := range meshes {
		for _, alt := range alts(m) {
			cm, ok := alt.(*vCoreMesh)
			if !ok {
				return nil, false
			}
			if cm.Axes == nil {
				return nil, true
			}
			for _, a := range cm.Axes {
				if !slices.Contains(axes, a) {
					axes = append(axes, a)
				}
			}
			n++
		}
	}
	return axes, n > 0
}

// kernelLocalAxes are kernelCoreAxes of k's mesh and, for a kernel whose
// output or scratch types live on another core mesh (vOnMesh: the MPMD
// form, a scalar-subcore kernel that copies into a TensorCore's VMEM),
// that mesh's axes too: a device id naming them addresses a core of the
// chip, not another device.
func kernelLocalAxes(k *kernelDecl) ([]string, bool) {
	axes, known := kernelCoreAxes(k.Kw["mesh"])
	if !known || axes == nil {
		return axes, known
	}
	var walk func(v value, depth int)
	walk = func(v value, depth int) {
		var items []value
		switch t := v.(type) {
		case *vOnMesh:
			if more, ok := kernelCoreAxes(t.Mesh); ok {
				for _, a := range more {
					if !slices.Contains(axes, a) {
						axes = append(axes, a) // in order: messages list them
					}
				}
			}
		case *vSeq:
			items = t.Items
		case *vDict:
			items = t.Items
		}
		for _, it := range items {
			if depth > 0 {
				walk(it, depth-1)
			}
		}
	}
	for _, kw := range []string{"out_type", "out_shape", "scratch_types", "scratch_shapes"} {
		walk(k.Kw[kw], 3)
	}
	return axes, known
}

// firstDevice is the first of axes that isDevice accepts.
func firstDevice(axes []string, isDevice func(string) bool) (string, bool) {
	for _, a := range axes {
		if isDevice(a) {
			return a, true
		}
	}
	return "", false
}
