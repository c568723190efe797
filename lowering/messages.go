package lowering

import (
	"strconv"
	"strings"
)

// Outcome is the first error JAX raises for a kernel call, or none.
type Outcome struct {
	Fails   bool
	Layer   string // LayerTrace, LayerPallasLowering, LayerCustomCall, LayerInterpret or LayerLowering
	Error   string // Python exception type: "NameError", "ValueError", "NotImplementedError", ...
	Message string // the JAX message in the wording of the predicted version
	Where   string // JAX source file that raises it
}

// Layers, in the order JAX runs them (jax-semantics.md §1). LayerInterpret
// replaces the two Mosaic layers in interpret=True mode.
const (
	LayerTrace          = "trace"
	LayerPallasLowering = "pallas-lowering"
	LayerCustomCall     = "custom-call"
	LayerInterpret      = "interpret"
	// LayerLowering is JAX's own lowering of the traced program to
	// StableHLO, outside Pallas (the legacy pmap's effect check).
	LayerLowering = "lowering"
)

// Messages whose wording never changed. They are quoted from JAX because
// users search for them verbatim.
const (
	MsgCommWithoutShardMap = "Cannot use communication in pallas_call without shard_map."
	MsgReplicaLowering     = "Replica lowering for Mosaic kernels not implemented."
	MsgRemoteSignal        = "Remote signal not implemented."
	// MsgUnrecognizedAxes ends with the dict id as JAX prints it (traced
	// values: "{\'x\': JitTracer(~int32[])}"), known only at run time.
	MsgUnrecognizedAxes = "Unrecognized axes in device_id: {device_id}"
)

// Where JAX raises each error.
const (
	whereCustomCall  = "jax/_src/tpu_custom_call.py"
	whereMosaicLower = "jax/_src/pallas/mosaic/lowering.py"
	wherePrimitives  = "jax/_src/pallas/primitives.py"
	whereMosaicPrims = "jax/_src/pallas/mosaic/primitives.py"
)

// UnboundAxisMessage is the NameError of lax.axis_index on an unbound name,
// as worded at v. Up to 0.4.35 core.axis_frame raised it with the list of
// bound names (empty where no pmap/vmap binds any); 0.4.36 (the stackless
// rewrite) shortened it; 0.7.0 added the shard_map hint in
// jax/_src/lax/parallel.py _check_axis_names.
func UnboundAxisMessage(v Version, axis string) string {
	switch {
	case v.Less(V(0, 4, 36)):
		return "unbound axis name: " + axis +
			". The following axis names (e.g. defined by pmap) are available to collective operations: []"
	case v.Less(V(0, 7, 0)):
		return "unbound axis name: " + axis
	}
	return "Found an unbound axis name: " + axis +
		". To fix this, please call axis_index under `jax.shard_map`."
}

func unboundAxisWhere(v Version) string {
	if v.Less(V(0, 4, 36)) {
		return "jax/_src/core.py"
	}
	return "jax/_src/lax/parallel.py"
}

// PartitionMessage is the custom-call error for a Mosaic kernel that XLA
// would have to partition. xmap was removed in 0.4.31 and with it the
// message's "or xmap".
func PartitionMessage(v Version) string {
	const base = "Mosaic kernels cannot be automatically partitioned. Please wrap the call in a shard_map"
	if v.Less(V(0, 4, 31)) {
		return base + " or xmap."
	}
	return base + "."
}

// ManualAxesMessage is the Explicit-sharding trace error. entry is
// "pallas_call" or "mpmd_map" (pl.kernel / core_map); axisTypes is JAX's
// tuple such as "(Explicit, Explicit)", or "" for a placeholder.
func ManualAxesMessage(entry, axisTypes string) string {
	if axisTypes == "" {
		axisTypes = "{axis_types}"
	}
	return entry + " requires all mesh axes to be Manual, got " + axisTypes
}

// meshIDOutcome is what lowering a MESH-typed device id does when no device
// mesh is known. The failure predates its message: an AttributeError on None
// before 0.7.0 (_device_id_to_logical reads mesh_context.mesh_strides), a
// bare `assert mesh_context is not None` in 0.7.0-0.8.1, and the explicit
// ValueError since 0.8.2 (0.8.1 has the message, but only for a known
// mesh: its assert still comes first without one; read from the 0.8.1 and
// 0.8.2 wheels, and the oracle records 0.7.2 and 0.8.3).
func meshIDOutcome(v Version, ids int) Outcome {
	o := Outcome{Fails: true, Layer: LayerPallasLowering}
	switch {
	case v.Less(V(0, 7, 0)):
		o.Error, o.Where = "AttributeError", whereMosaicLower
		o.Message = "'NoneType' object has no attribute 'mesh_strides'"
	case v.Less(V(0, 8, 2)):
		o.Error, o.Where = "AssertionError", wherePrimitives
		if v.Less(V(0, 7, 1)) {
			o.Where = whereMosaicLower
		}
	default:
		n := "{n}"
		if ids > 0 {
			n = strconv.Itoa(ids)
		}
		o.Error, o.Where = "ValueError", wherePrimitives
		o.Message = "Number of device ids must match the number of mesh axes, but got " +
			n + " ids for a 0D mesh."
	}
	return o
}

// remoteSignalWhere follows the semaphore primitives' move from the Mosaic
// module to the shared Pallas one in 0.6.0.
func remoteSignalWhere(v Version) string {
	if v.Less(V(0, 6, 0)) {
		return whereMosaicPrims
	}
	return wherePrimitives
}

// placeholder returns s, or "{name}" when s is empty, so an unknown detail
// is visibly a placeholder rather than a wrong value.
func placeholder(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{name}"
	}
	return s
}
