package lowering

// ContextKind is the SPMD context a kernel call runs in (jax-semantics.md
// §3), reduced to what decides JAX's checks. The analysis infers it along
// each path from an entry point to the kernel call.
type ContextKind int

// Context kinds.
const (
	CtxUnknown         ContextKind = iota
	CtxEagerSingle                 // eager or jit on one device (no evidence of more)
	CtxJitMulti                    // jit spanning more than one device, no shard_map
	CtxShardMapFull                // shard_map with all mesh axes manual (or custom_partitioning, pmap >= 0.8)
	CtxShardMapPartial             // shard_map/smap leaving some mesh axes not manual
	CtxPmap                        // jax.pmap (the version decides: legacy replica context below 0.8.0)
)

var ctxNames = [...]string{
	CtxUnknown:         "unknown",
	CtxEagerSingle:     "eager-single",
	CtxJitMulti:        "jit-multi",
	CtxShardMapFull:    "shard-map-full",
	CtxShardMapPartial: "shard-map-partial",
	CtxPmap:            "pmap",
}

// String returns a stable kebab-case name for hover text and tests.
func (k ContextKind) String() string {
	if k < 0 || int(k) >= len(ctxNames) {
		return "unknown"
	}
	return ctxNames[k]
}

// Context is where a kernel call runs. It is a comparable value so the
// analysis can use it as a map key and compare lattice states with ==.
type Context struct {
	Kind ContextKind
	// ExplicitMesh: an Explicit-axes mesh with sharded inputs (the
	// jax.make_mesh default since 0.9.0). Only matters for CtxJitMulti.
	ExplicitMesh bool
	// AxisBound: a binder around the call (vmap's axis_name) binds the
	// kernel's lax.axis_index name, so tracing does not fail on it; the
	// kernel still communicates without a shard_map.
	AxisBound bool
	// TraceOnly: the call is only traced, never lowered (jit(f).trace,
	// jax.make_jaxpr, jax.eval_shape): only trace-time errors are raised.
	TraceOnly bool
	// PmapLegacy: the program sets jax_pmap_shmap_merge to False before a
	// pmap call, so pmap keeps its legacy replica context where the option
	// exists (PmapMergeOption); PmapMerged: it sets it to True, so pmap is
	// jit over a fully manual shard_map before 0.8.0 too.
	PmapLegacy, PmapMerged bool
	// InnerPartial: a shard_map body whose manual axes cover the mesh only
	// together with the shard_maps around it; the innermost alone leaves
	// some axes automatic. Before nestedManualVersion Mosaic's
	// partitioning check reads only the innermost's manual axes.
	InnerPartial bool
}

// nestedManualVersion: from 0.9.0 _tpu_custom_call_lowering adds the
// mesh's manual axes (those of the enclosing shard_maps) to the axis
// context's before comparing them with the mesh axes; 0.8.3 compares the
// innermost shard_map's own (the oracle: nested shard_maps fail on 0.6.2
// to 0.8.3 with the partitioning error, pass from 0.9.2).
var nestedManualVersion = V(0, 9, 0)

// pmapMergeVersion is when jax.pmap became jit+shard_map by default
// (jax_pmap_shmap_merge defaults to True from 0.8.0, jax/_src/config.py).
var pmapMergeVersion = V(0, 8, 0)

// PmapMergeOption is the jax.config option that chooses between the two
// pmaps; it exists up to pmapMergeRemoved (0.4.29 to 0.9.x have it in
// jax/_src/config.py, 0.10.0 does not) and api.py's pmap reads it at call
// time.
const PmapMergeOption = "jax_pmap_shmap_merge"

var pmapMergeRemoved = V(0, 10, 0)

// Effective folds version-dependent kinds into what JAX sees at v: from
// 0.8.0 a pmap body is a fully manual shard_map, unless the program turned
// jax_pmap_shmap_merge off while the option still existed.
func (c Context) Effective(v Version) Context {
	if c.Kind == CtxPmap {
		merged := v.AtLeast(pmapMergeVersion)
		if !v.AtLeast(pmapMergeRemoved) && (c.PmapLegacy || c.PmapMerged) {
			merged = c.PmapMerged
		}
		if merged {
			c.Kind = CtxShardMapFull
		}
	}
	if c.Kind == CtxShardMapFull && c.InnerPartial && !v.AtLeast(nestedManualVersion) {
		c.Kind = CtxShardMapPartial
	}
	return c
}

// FullyManual reports whether a Mosaic kernel may run here without any
// partitioning error: the "fully manual SPMD context" of PAL101.
func (c Context) FullyManual(v Version) bool {
	return c.Effective(v).Kind == CtxShardMapFull
}

// hasMesh reports whether Pallas lowering can see a device mesh: only a
// shard_map body (SPMDAxisContext) provides one; jit and the legacy pmap
// replica context do not. Even there Pallas fetches it only when the
// kernel sets the Pallas-level flag (Effects.pallasFlag).
func (c Context) hasMesh() bool {
	return c.Kind == CtxShardMapFull || c.Kind == CtxShardMapPartial
}

// Effects summarises what a kernel does, as the analysis inferred it from
// the kernel body, its helpers and its BlockSpec index_maps.
type Effects struct {
	AxisIndexDeviceAxis bool // lax.axis_index on a device-mesh axis in the kernel or an index_map
	DictDeviceID        bool // remote DMA or signal with a dict device id naming a device axis
	SignalDeviceID      bool // pl.semaphore_signal with a non-dict device_id (comms effect since 0.7.0)
	RemoteDMA           bool // any remote DMA start (Mosaic-level flag)
	MeshIntTupleID      bool // MESH-typed int/tuple device id (no dict) of a remote DMA or signal
	LogicalOnly         bool // the only communication is LOGICAL constant-id remote DMA ("hidden")
	Interpret           bool // interpret mode
	Local               bool // convenience: no communication at all; overrides the flags above

	// Additions beyond the first-wave contract; their zero values keep the
	// behaviour described above.

	// AxisName is the device axis passed to lax.axis_index, substituted into
	// the NameError message; "" leaves the "{name}" placeholder.
	AxisName string
	// AxisIndexNonManual: inside a partial shard_map, the axis_index names a
	// mesh axis that is not manual there, so it is unbound (NameError).
	AxisIndexNonManual bool
	// InterpretParams: interpret mode is pltpu.InterpretParams, which
	// simulates remote operations, rather than interpret=True.
	InterpretParams bool
	// MeshKernel: the kernel enters through pl.kernel / pl.core_map (the
	// mpmd_map path), which has no Pallas-level "communication without
	// shard_map" check.
	MeshKernel bool
	// AxisSizeDeviceAxis: the kernel's first use of a device-axis name is
	// lax.axis_size (AxisName), not lax.axis_index: outside a binder its
	// trace fails with the plain "unbound axis name" (axis_size asks for
	// the size before anything is bound). Not communication.
	AxisSizeDeviceAxis bool
	// AnyDictID: some remote DMA or signal takes a dict device id, even
	// one naming only core axes (in a partial shard_map, from 0.10 the
	// id's lowering asks axis_index of every mesh axis).
	AnyDictID bool
	// DeviceIDs is the number of ids in a MESH int/tuple device id, for the
	// "Number of device ids" message; 0 leaves the "{n}" placeholder.
	DeviceIDs int
	// SignalDictID: pl.semaphore_signal with a dict device_id naming a
	// device axis. From 0.7.0 to 0.8.1 any signal device_id, dicts too,
	// adds the comms effect (0.7.2's _semaphore_signal_abstract_eval).
	SignalDictID bool
	// AxisIndexMapOnly: every device-axis lax.axis_index is in a BlockSpec
	// index_map, none in the kernel body. Before indexMapFlagVersion
	// Pallas' has_communication read only the kernel's jaxpr.
	AxisIndexMapOnly bool
}

// indexMapFlagVersion: from 0.4.33 MosaicGridMapping.has_communication
// adds the named axes of the index maps' jaxprs to the kernel's (0.4.32
// reads the kernel's alone).
var indexMapFlagVersion = V(0, 4, 33)

// normalized applies Local: a kernel declared local has no communication
// flags, whatever else was set.
func (e Effects) normalized() Effects {
	if !e.Local {
		return e
	}
	return Effects{Local: true, Interpret: e.Interpret, InterpretParams: e.InterpretParams,
		MeshKernel: e.MeshKernel, AxisSizeDeviceAxis: e.AxisSizeDeviceAxis, AxisName: e.AxisName, AnyDictID: e.AnyDictID}
}

// Communicates reports whether the kernel talks to other devices at all.
func (e Effects) Communicates() bool {
	e = e.normalized()
	return e.AxisIndexDeviceAxis || e.DictDeviceID || e.SignalDeviceID || e.RemoteDMA ||
		e.MeshIntTupleID || e.LogicalOnly
}

// Versions at which an operation starts to set the Pallas-level flag.
var (
	// signalEffectVersion: pl.semaphore_signal with a device_id adds the
	// comms effect (jax/_src/pallas/primitives.py, 0.7.2 has it, 0.6.2 not).
	signalEffectVersion = V(0, 7, 0)
	// dictEffectVersion: a dict device_id of a remote DMA or signal adds a
	// named-axis effect per key. Read from the released sources: 0.8.1's
	// dma_start and semaphore_signal abstract evals add none (a dict id in a
	// kernel with no axis_index fails on the missing mesh even inside
	// shard_map, as the oracle records for 0.4.29-0.7.2), 0.8.2's do.
	dictEffectVersion = V(0, 8, 2)
)

// pallasFlag is the Pallas-level "has communication" flag (§2a): named-axis
// effects on device axes (axis_index; dict device ids since 0.8.2), and the
// comms effect that pl.semaphore_signal with a non-dict device_id adds since
// 0.7.0. Remote DMA with an int or tuple id adds neither.
func (e Effects) pallasFlag(v Version) bool {
	return e.AxisIndexDeviceAxis && !e.mapAxisUnseen(v) || (e.DictDeviceID && v.AtLeast(dictEffectVersion)) ||
		((e.SignalDeviceID || e.SignalDictID) && v.AtLeast(signalEffectVersion))
}

// IndexMapAxisUnseen reports whether v's Pallas lowering misses the
// kernel's communication because its only device-axis lax.axis_index is in
// an index_map (before 0.4.33): inside a shard_map it then lowers without
// the device mesh, and the index map's axis_index fails on it.
func IndexMapAxisUnseen(v Version, eff Effects) bool {
	eff = eff.normalized()
	return eff.mapAxisUnseen(v) && !eff.pallasFlag(v)
}

// mapAxisUnseen: the kernel's only device-axis axis_index is in an
// index_map, which v's Pallas-level flag does not read.
func (e Effects) mapAxisUnseen(v Version) bool {
	return e.AxisIndexMapOnly && !v.AtLeast(indexMapFlagVersion)
}

// needsMesh: a MESH-typed device id (int, tuple or dict: dicts are always
// MESH) must be linearised with the lowering's mesh, which exists only
// when the Pallas-level flag is set. Dict ids count for pallas_call
// kernels from the first version with the communication check (older
// releases are not recorded); pl.kernel/core_map resolve dict keys
// against their core mesh first (reported elsewhere).
func (e Effects) needsMesh(v Version) bool {
	return e.MeshIntTupleID || e.DictDeviceID && !e.MeshKernel && v.AtLeast(commCheckVersion)
}

// mosaicFlag is the Mosaic-level communication flag (§2b): any remote DMA
// or signal with a device id survives into the module; axis_index alone
// does not.
func (e Effects) mosaicFlag() bool {
	return e.RemoteDMA || e.SignalDeviceID || e.DictDeviceID || e.MeshIntTupleID || e.LogicalOnly
}
