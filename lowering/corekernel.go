package lowering

// Core-mesh kernels (pl.kernel, core_map) under JAX transformations, as
// the oracle recorded them on 0.8.3 to 0.12.0.1 and the releases' sources
// say (jax/_src/pallas/core.py, jax/_src/pallas/mpmd.py).

var (
	// CoreKernelVmapCheckedSince is the oldest release these outcomes are
	// checked on (the oracle's core-mesh cases start at 0.8.3); older ones
	// are not judged.
	CoreKernelVmapCheckedSince = V(0, 8, 0)
	// MpmdMapSince: pl.kernel binds mpmd_map, whose batching rule accepts
	// only a batch dimension of 1 until 0.11.0, which batches the body.
	MpmdMapSince = V(0, 10, 0)
	// MpmdBodyBatchingSince batches the kernel body, whose run_scoped
	// (scratch buffers) has no batching rule until 0.12.0.
	MpmdBodyBatchingSince  = V(0, 11, 0)
	RunScopedBatchingSince = V(0, 12, 0)
	// LegacyPmapEffectsUntil: jax_pmap_shmap_merge=False pmap cannot
	// lower a core-mesh kernel's internal mutable-array effect (0.8, 0.9;
	// the option is gone after).
	LegacyPmapEffectsUntil = V(0, 10, 0)
)

// CoreKernelUnderVmap is what tracing a core-mesh kernel under jax.vmap
// raises at v. scratch: the kernel is declared with scratch buffers; wide:
// the batch size is known to exceed 1 (from 0.10 a batch of 1 is
// squeezed, not batched: unknown sizes are not judged there).
func CoreKernelUnderVmap(v Version, scratch, wide bool) Outcome {
	o := Outcome{Fails: true, Layer: LayerTrace, Error: "NotImplementedError", Where: whereCore}
	switch {
	case v.Less(CoreKernelVmapCheckedSince) || !v.Less(RunScopedBatchingSince):
		return Outcome{}
	case v.Less(MpmdMapSince):
		o.Message = "Batching rule for 'core_map' not implemented"
	case !wide:
		return Outcome{}
	case v.Less(MpmdBodyBatchingSince):
		o.Message = "mpmd_map only supports batching with a batch dimension of 1, got {n}"
	case scratch:
		o.Message = "Batching rule for 'run_scoped' not implemented"
	default:
		return Outcome{} // the body is batched: depends on what it binds
	}
	return o
}

// CoreKernelUnderLegacyPmap is what lowering a core-mesh kernel under a
// pmap that jax_pmap_shmap_merge=False keeps legacy raises at v.
func CoreKernelUnderLegacyPmap(v Version) Outcome {
	if v.Less(CoreKernelVmapCheckedSince) || !v.Less(LegacyPmapEffectsUntil) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerLowering, Error: "ValueError", Where: "jax/_src/interpreters/mlir.py",
		Message: "Cannot lower jaxpr with effects: {effects}"}
}
