package lowering

import "strconv"

// Versions at which a check starts to exist. Before them JAX stays silent
// and the next layer decides.
var (
	commCheckVersion      = V(0, 4, 21) // "Cannot use communication in pallas_call without shard_map."
	remoteSignalVersion   = V(0, 4, 32) // interpret=True discharge rule for remote signals
	explicitPallasVersion = V(0, 9, 0)  // pallas_call abstract eval rejects Explicit-sharded operands
	explicitMpmdVersion   = V(0, 11, 0) // mpmd_map (pl.kernel, core_map) does the same
	// mpmdDeviceIDVersion: pl.kernel / core_map lower through mpmd_map,
	// whose device-id lowering knows only the kernel's own mesh axes, so a
	// dict id naming a device axis outside shard_map is "Unrecognized axes
	// in device_id" (the oracle: 0.10.2 on; 0.9.2 and 0.8.3 still take
	// pallas_call's "Cannot use communication" check, so the change lies in
	// between; 0.10.0 is assumed).
	mpmdDeviceIDVersion = V(0, 10, 0)
	// partialDictIDVersion: a dict device id in a shard_map that leaves
	// mesh axes automatic fails in Pallas lowering with the NameError of
	// axis_index on the first automatic axis (the oracle: 0.10.2 on; 0.9.2
	// reaches the custom call's partitioning error; 0.10.0 is assumed).
	partialDictIDVersion = V(0, 10, 0)
)

// Predict returns the first error JAX version v raises when a TPU kernel
// with effects eff is called in context ctx, following jax-semantics.md §4:
// trace-time checks first, then Pallas-to-Mosaic lowering, then the Mosaic
// custom-call lowering; interpret mode replaces the last two. An unknown
// context predicts no failure, because pallas-ls never reports on guesses.
// It assumes a TPU kernel; the caller skips GPU kernels. A trace-only
// context (ctx.TraceOnly) stops after the trace layer.
func Predict(v Version, ctx Context, eff Effects) Outcome {
	ctx = ctx.Effective(v)
	if ctx.Kind == CtxUnknown {
		return Outcome{}
	}
	eff = eff.normalized()
	if o, ok := traceLayer(v, ctx, eff); ok {
		return o
	}
	if ctx.TraceOnly {
		return Outcome{} // tracing never reaches the lowering layers
	}
	if eff.Interpret {
		return interpretLayer(v, ctx, eff)
	}
	if o, ok := pallasLoweringLayer(v, ctx, eff); ok {
		return o
	}
	return customCallLayer(v, ctx, eff)
}

// traceLayer: the kernel is traced before pallas_call is bound, so an
// unbound axis_index fails before the abstract-eval Explicit-mode check.
func traceLayer(v Version, ctx Context, eff Effects) (Outcome, bool) {
	if eff.AxisSizeDeviceAxis && axisUnbound(ctx, eff) {
		return UnboundCollective(v, "jax.lax.axis_size", false, eff.AxisName), true
	}
	if eff.AxisIndexDeviceAxis && axisUnbound(ctx, eff) {
		return Outcome{Fails: true, Layer: LayerTrace, Error: "NameError",
			Message: UnboundAxisMessage(v, placeholder(eff.AxisName)), Where: unboundAxisWhere(v)}, true
	}
	if ctx.Kind == CtxJitMulti && ctx.ExplicitMesh {
		entry, where, since := "pallas_call", "jax/_src/pallas/pallas_call.py", explicitPallasVersion
		if eff.MeshKernel {
			entry, where, since = "mpmd_map", "jax/_src/pallas/mpmd.py", explicitMpmdVersion
		}
		if v.AtLeast(since) {
			return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError",
				Message: ManualAxesMessage(entry, ""), Where: where}, true
		}
	}
	return Outcome{}, false
}

// axisUnbound: shard_map binds its manual axes and pmap its axis_name;
// jit binds none. Grid and core-mesh names never reach here: the analysis
// only reports axis_index on device-mesh axes.
func axisUnbound(ctx Context, eff Effects) bool {
	if ctx.AxisBound {
		return false
	}
	switch ctx.Kind {
	case CtxEagerSingle, CtxJitMulti:
		return true
	case CtxShardMapPartial:
		return eff.AxisIndexNonManual
	}
	return false
}

// interpretLayer: interpret mode never reaches Mosaic. interpret=True runs
// the discharge interpreter, whose semaphore_signal rule rejects a device
// id; InterpretParams simulates devices and accepts it.
func interpretLayer(v Version, ctx Context, eff Effects) Outcome {
	if eff.SignalDeviceID && !eff.InterpretParams && v.AtLeast(remoteSignalVersion) {
		return Outcome{Fails: true, Layer: LayerInterpret, Error: "NotImplementedError",
			Message: MsgRemoteSignal, Where: remoteSignalWhere(v)}
	}
	if ctx.Kind == CtxEagerSingle || ctx.Kind == CtxJitMulti {
		if o, ok := interpretRemoteDMA(v, eff); ok && !eff.InterpretParams {
			return o
		}
	}
	return Outcome{}
}

// interpretRemoteDMAVersion is the first recorded release whose
// interpret=True discharge of dma_start reads the axis environment for a
// remote copy (0.4.33 has it, 0.4.30 not).
var interpretRemoteDMAVersion = V(0, 4, 33)

// interpretRemoteDMA: interpret=True discharges a remote DMA with the
// named axes of the axis environment (jax/_src/pallas/mosaic/primitives.py
// dma_start discharge rule), which outside shard_map and pmap has none. The
// failure depends on the id form and the version, as the oracle records
// for PAL101/interpret_mode: a MESH int/tuple id is compared with the empty
// mesh ("device_id (1) and mesh (0) must have same length.", from 0.12 the
// shared "0D mesh" check); a dict id is one such id before 0.7.0, then is
// expanded over no axes and the LOGICAL path's nonempty_axes[0] raises
// IndexError, and from 0.12 its keys are "Non-mesh axes"; a LOGICAL id
// fails the same IndexError way (PAL101/interpret_remote_copy_ids records
// each form; the generated interpret_true cases are run with interpret
// forced off, see oracle/README.md, so they cannot). Only one id form
// at a time: with several, which op is discharged first is not modelled.
func interpretRemoteDMA(v Version, eff Effects) (Outcome, bool) {
	if !eff.RemoteDMA || v.Less(interpretRemoteDMAVersion) {
		return Outcome{}, false
	}
	forms := 0
	for _, f := range []bool{eff.DictDeviceID, eff.MeshIntTupleID, eff.LogicalOnly} {
		if f {
			forms++
		}
	}
	if forms != 1 || eff.SignalDeviceID {
		return Outcome{}, false
	}
	const where = "jax/_src/pallas/mosaic/primitives.py"
	o := Outcome{Fails: true, Layer: LayerInterpret, Where: where}
	n := "{n}"
	if eff.DeviceIDs > 0 {
		n = strconv.Itoa(eff.DeviceIDs)
	}
	sameLength := func(n string) Outcome {
		o.Error, o.Message = "ValueError", "device_id ("+n+") and mesh (0) must have same length."
		return o
	}
	indexError := func() Outcome {
		o.Error, o.Message = "IndexError", "list index out of range"
		return o
	}
	switch {
	case eff.LogicalOnly:
		// The LOGICAL branch takes nonempty_axes[0], a tuple from 0.12.
		o.Error, o.Message = "IndexError", "list index out of range"
		if v.AtLeast(V(0, 12, 0)) {
			o.Message = "tuple index out of range"
		}
		return o, true
	case eff.MeshIntTupleID && v.Less(V(0, 12, 0)):
		return sameLength(n), true
	case eff.MeshIntTupleID:
		o.Error, o.Where = "ValueError", wherePrimitives
		o.Message = "Number of device ids must match the number of mesh axes, but got " + n + " ids for a 0D mesh."
		return o, true
	case v.Less(V(0, 7, 0)):
		return sameLength("{n}"), true
	case v.Less(V(0, 12, 0)):
		return indexError(), true
	}
	o.Error, o.Message = "NotImplementedError", "Non-mesh axes not implemented in dma_start_p: {axes}"
	return o, true
}

// pallasLoweringLayer: outside a shard_map body Pallas lowering has no
// device mesh. A pallas_call that communicates at the Pallas level is
// rejected outright; otherwise a MESH-typed id still needs the missing mesh
// to linearise. Inside shard_map, MosaicGridMapping fetches the mesh only
// when the Pallas-level flag is set (_prepare_mesh_info: mesh_info is None
// without it), so a MESH id in a kernel with no axis_index (a constant
// int, tuple or, before 0.8.2, dict id) fails the same way there, on every
// recorded version. pl.kernel/core_map bodies take their mesh from another
// path; inside shard_map they are left alone.
func pallasLoweringLayer(v Version, ctx Context, eff Effects) (Outcome, bool) {
	flag := eff.pallasFlag(v)
	if ctx.Kind == CtxShardMapPartial && eff.AnyDictID && v.AtLeast(partialDictIDVersion) {
		// The dict id is linearised over every mesh axis, with
		// axis_index on each: an automatic one is unbound.
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "NameError",
			Message: UnboundAxisMessage(v, placeholder("")), Where: unboundAxisWhere(v)}, true
	}
	if ctx.hasMesh() && (flag || eff.MeshKernel) {
		return Outcome{}, false
	}
	if !ctx.hasMesh() && eff.MeshKernel && eff.DictDeviceID {
		if v.AtLeast(mpmdDeviceIDVersion) {
			return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError",
				Message: MsgUnrecognizedAxes, Where: whereMosaicLower}, true
		}
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError",
			Message: MsgCommWithoutShardMap, Where: whereMosaicLower}, true
	}
	if !ctx.hasMesh() && !eff.MeshKernel && flag && v.AtLeast(commCheckVersion) {
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError",
			Message: MsgCommWithoutShardMap, Where: whereMosaicLower}, true
	}
	if eff.needsMesh(v) {
		return meshIDOutcome(v, eff.DeviceIDs), true
	}
	if eff.mapAxisUnseen(v) && !flag {
		// The index maps are lowered after the body, with no mesh for
		// their axis_index (_axis_index_rule reads mesh_context).
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "AttributeError",
			Message: "'NoneType' object has no attribute 'mesh_shape'", Where: whereMosaicLower}, true
	}
	return Outcome{}, false
}

// customCallLayer mirrors _tpu_custom_call_lowering: partitioning errors
// ignore communication entirely, while the legacy replica branch fails
// only when the Mosaic module communicates.
func customCallLayer(v Version, ctx Context, eff Effects) Outcome {
	switch ctx.Kind {
	case CtxJitMulti, CtxShardMapPartial:
		return Outcome{Fails: true, Layer: LayerCustomCall, Error: "NotImplementedError",
			Message: PartitionMessage(v), Where: whereCustomCall}
	case CtxPmap:
		if eff.mosaicFlag() {
			return Outcome{Fails: true, Layer: LayerCustomCall, Error: "NotImplementedError",
				Message: MsgReplicaLowering, Where: whereCustomCall}
		}
	}
	return Outcome{}
}
