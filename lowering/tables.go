package lowering

// Version facts in these tables were read from jax-ml/jax release tags:
// jax/experimental/pallas/{__init__,tpu,tpu_sc,mosaic_gpu,triton}.py (their
// imports and _deprecations dicts), jax/_src/pallas/mosaic/core.py
// (MemorySpace.ANY) and CHANGELOG.md. Since is the first release that
// exports the name; it is left zero where the exact release does not matter.

// pallasAPIs are the backend-neutral jax.experimental.pallas names.
func pallasAPIs() []API {
	return []API{
		{Name: pl + "pallas_call", Role: RolePallasCall},
		{Name: pl + "kernel", Role: RoleKernelEntry, Since: V(0, 8, 1)},
		{Name: pl + "core_map", Role: RoleCoreMap, Since: V(0, 4, 35)},
		{Name: pl + "when", Role: RoleTransparent},
		{Name: pl + "loop", Role: RoleTransparent, Since: V(0, 6, 2)},
		{Name: pl + "run_scoped", Role: RoleTransparent, Since: V(0, 4, 31)},
		{Name: pl + "semaphore_signal", Role: RoleRemoteComm, Since: V(0, 6, 0),
			Note: "communicates when device_id is given and names a device"},
		{Name: pl + "semaphore_wait", Role: RoleLocalOp, Since: V(0, 6, 0)},
		{Name: pl + "semaphore_read", Role: RoleLocalOp, Since: V(0, 6, 0)},
		{Name: pl + "semaphore", Since: V(0, 6, 0)},
		{Name: pl + "DeviceIdType", Role: RoleDeviceIdType, Since: V(0, 6, 0)},
		{Name: pl + "delay", Role: RoleLocalOp, Since: V(0, 8, 1)},
		{Name: pl + "ANY", Since: V(0, 4, 34)},
		{Name: pl + "HOST", Since: V(0, 7, 0)},
	}
}

// tpuAPIs are the Mosaic TPU names (pltpu, tpu_sc, TPU library ops).
func tpuAPIs() []API {
	out := []API{
		{Name: pltpu + "make_async_remote_copy", Role: RoleRemoteComm, Backend: BackendTPU, Since: V(0, 4, 19),
			Note: "communicates once started, when device_id is not core-only"},
		{Name: pltpu + "async_remote_copy", Role: RoleRemoteComm, Backend: BackendTPU, Since: V(0, 4, 16),
			Note: "creates and starts a remote copy"},
		{Name: pltpu + "make_async_copy", Role: RoleLocalOp, Backend: BackendTPU, Since: V(0, 4, 19)},
		{Name: pltpu + "async_copy", Role: RoleLocalOp, Backend: BackendTPU, Since: V(0, 4, 16)},
		{Name: pltpu + "sync_copy", Role: RoleLocalOp, Backend: BackendTPU, Since: V(0, 5, 0)},
		{Name: pltpu + "core_barrier", Role: RoleLocalOp, Backend: BackendTPU, Since: V(0, 5, 1)},
		{Name: pltpu + "get_barrier_semaphore", Role: RoleLocalOp, Backend: BackendTPU, Since: V(0, 4, 21),
			Note: "marks a distributed kernel (needs collective_id) but does not communicate"},
		{Name: pltpu + "emit_pipeline", Role: RoleTransparent, Backend: BackendTPU, Since: V(0, 4, 24)},
		{Name: pltpu + "emit_pipeline_with_allocations", Role: RoleTransparent, Backend: BackendTPU},
		{Name: pltpu + "run_on_first_core", Role: RoleTransparent, Backend: BackendTPU, Since: V(0, 5, 1)},
		{Name: pltpu + "CompilerParams", Role: RoleTPUCompilerParams, Backend: BackendTPU, Since: V(0, 6, 2)},
		{Name: pltpu + "TPUCompilerParams", Role: RoleTPUCompilerParams, Backend: BackendTPU, Since: V(0, 4, 32),
			Deprecated: V(0, 6, 2), Removed: V(0, 7, 2), ReplacedBy: pltpu + "CompilerParams",
			Note: "renamed to pltpu.CompilerParams in 0.6.2; the old name is gone in 0.7.2"},
		{Name: pltpu + "InterpretParams", Role: RoleInterpretParams, Backend: BackendTPU, Since: V(0, 6, 2)},
		{Name: pltpu + "MemorySpace", Backend: BackendTPU, Since: V(0, 6, 2)},
		// Read from the released wheels: 0.11.1's pallas/tpu.py has no ACC,
		// 0.11.2's does (the oracle raises AttributeError before it).
		{Name: pltpu + "ACC", Backend: BackendTPU, Since: V(0, 11, 2),
			Note: "the accumulator memory space is new in 0.11.2"},
		{Name: pltpu + "TPUMemorySpace", Backend: BackendTPU,
			Deprecated: V(0, 6, 2), Removed: V(0, 7, 2), ReplacedBy: pltpu + "MemorySpace",
			Note: "renamed to pltpu.MemorySpace in 0.6.2; the old name is gone in 0.7.2"},
		{Name: pltpu + "ANY", Backend: BackendTPU,
			Deprecated: V(0, 8, 2), Removed: V(0, 10, 0), ReplacedBy: pl + "ANY",
			Note: "moved to pl.ANY (deprecated 0.8.2, removed 0.10.0)"},
		{Name: pltpu + "MemorySpace.ANY", Backend: BackendTPU,
			Deprecated: V(0, 8, 2), Removed: V(0, 10, 0), ReplacedBy: pl + "ANY",
			Note: "moved to pl.ANY (deprecated 0.8.2, removed 0.10.0)"},
		{Name: pltpu + "HOST", Backend: BackendTPU, Deprecated: V(0, 10, 2), Removed: V(0, 11, 2), ReplacedBy: pl + "HOST",
			Note: "moved to pl.HOST in 0.10.2; 0.11.2 raises AttributeError for it (its deprecation entry is final there, though its message says 0.12.0)"},
		{Name: pltpu + "delay", Role: RoleLocalOp, Backend: BackendTPU, Since: V(0, 4, 29),
			Deprecated: V(0, 8, 1), Removed: V(0, 10, 0), ReplacedBy: pl + "delay",
			Note: "moved to pl.delay (deprecated 0.8.1, removed 0.10.0)"},
		{Name: pltpu + "CoreType", Backend: BackendTPU, Since: V(0, 9, 1)},
		{Name: pltpu + "KernelType", Backend: BackendTPU, Since: V(0, 6, 1),
			Deprecated: V(0, 9, 1), Removed: V(0, 10, 2), ReplacedBy: pltpu + "CoreType",
			Note: "renamed to pltpu.CoreType in 0.9.1; the old name is gone in 0.10.2"},
		{Name: pltpu + "repeat", Backend: BackendTPU,
			Deprecated: V(0, 9, 1), Removed: V(0, 10, 2), ReplacedBy: "jax.numpy.tile",
			Note: "deprecated in 0.9.1 in favour of jnp.tile, removed in 0.10.2"},
		{Name: pltpu + "create_tensorcore_mesh", Role: RoleCoreMesh, Backend: BackendTPU, Since: V(0, 4, 31),
			Deprecated: V(0, 11, 0), ReplacedBy: pltpu + "TensorCoreMesh",
			Note: "deprecated in 0.11.0 in favour of pltpu.TensorCoreMesh"},
		{Name: pltpu + "TensorCoreMesh", Role: RoleCoreMesh, Backend: BackendTPU, Since: V(0, 11, 0)},
		{Name: plsc + "ScalarSubcoreMesh", Role: RoleCoreMesh, Backend: BackendTPU, Since: V(0, 7, 2)},
		{Name: plsc + "VectorSubcoreMesh", Role: RoleCoreMesh, Backend: BackendTPU, Since: V(0, 7, 2)},
		{Name: "jax.experimental.pallas.ops.tpu.all_gather.all_gather", Role: RoleSelfWrapping,
			Backend: BackendTPU, Since: V(0, 4, 22),
			Note: "communicates but wraps itself in shard_map: safe to call anywhere"},
	}
	return append(out, movedToPallas()...)
}

// movedToPallas lists the semaphore API that moved from pltpu to pl: the
// pltpu spellings were deprecated in 0.10.0 and removed in 0.11.0.
func movedToPallas() []API {
	moved := []struct {
		name  string
		role  Role
		since Version
	}{
		{"semaphore_signal", RoleRemoteComm, Version{}},
		{"semaphore_wait", RoleLocalOp, Version{}},
		{"semaphore_read", RoleLocalOp, V(0, 4, 27)},
		{"semaphore", RoleUnknown, Version{}},
		{"DeviceIdType", RoleDeviceIdType, V(0, 4, 17)},
	}
	out := make([]API, 0, len(moved))
	for _, m := range moved {
		out = append(out, API{
			Name: pltpu + m.name, Role: m.role, Backend: BackendTPU, Since: m.since,
			Deprecated: V(0, 10, 0), Removed: V(0, 11, 0), ReplacedBy: pl + m.name,
			Note: "moved to pl." + m.name + " (deprecated 0.10.0, removed 0.11.0)",
		})
	}
	return out
}

// gpuAPIs are Mosaic GPU and Triton names: evidence that a kernel is a GPU
// kernel, to which none of the TPU outcomes apply.
func gpuAPIs() []API {
	return []API{
		{Name: plgpu + "kernel", Role: RoleKernelEntry, Backend: BackendGPU, Since: V(0, 5, 1)},
		{Name: plgpu + "CompilerParams", Role: RoleGPUCompilerParams, Backend: BackendGPU, Since: V(0, 6, 1)},
		{Name: plgpu + "GPUCompilerParams", Role: RoleGPUCompilerParams, Backend: BackendGPU,
			Removed: V(0, 6, 1), ReplacedBy: plgpu + "CompilerParams",
			Note: "renamed to plgpu.CompilerParams in 0.6.1"},
		{Name: plgpu + "remote_ref", Role: RoleRemoteComm, Backend: BackendGPU, Since: V(0, 6, 1),
			Note: "GPU communication: the TPU shard_map rules do not apply"},
		{Name: plgpu + "multicast_ref", Role: RoleRemoteComm, Backend: BackendGPU, Since: V(0, 8, 0),
			Note: "GPU communication: the TPU shard_map rules do not apply"},
		{Name: pltriton + "CompilerParams", Role: RoleGPUCompilerParams, Backend: BackendGPU, Since: V(0, 6, 2)},
		{Name: pltriton + "TritonCompilerParams", Role: RoleGPUCompilerParams, Backend: BackendGPU,
			Deprecated: V(0, 6, 2), Removed: V(0, 7, 2), ReplacedBy: pltriton + "CompilerParams",
			Note: "renamed to pltriton.CompilerParams in 0.6.2; the old name is gone in 0.7.2"},
	}
}

// jaxAPIs are the core JAX names that decide a kernel call's context:
// SPMD constructs, jit, transparent wrappers, axis queries, and the mesh and
// sharding evidence behind "more than one device". Versions were read from
// jax/__init__.py, jax/sharding.py, jax/lax/__init__.py,
// jax/experimental/{shard_map,pjit}.py and CHANGELOG.md at release tags.
func jaxAPIs() []API {
	out := []API{
		{Name: "jax.shard_map", Role: RoleShardMap, Since: V(0, 6, 1)},
		{Name: "jax.experimental.shard_map.shard_map", Role: RoleShardMap,
			Deprecated: V(0, 8, 0), ReplacedBy: "jax.shard_map",
			Note: "deprecated in 0.8.0 in favour of jax.shard_map (check_rep becomes check_vma, auto becomes axis_names)"},
		{Name: "jax.smap", Role: RoleSmap, Since: V(0, 7, 0)},
		{Name: "jax.pmap", Role: RolePmap,
			Note: "jit+shard_map by default since 0.8.0; legacy replica context before"},
		{Name: "jax.jit", Role: RoleJit},
		{Name: "jax.experimental.pjit.pjit", Role: RoleJit,
			Deprecated: V(0, 8, 0), ReplacedBy: "jax.jit", Note: "deprecated in 0.8.0 in favour of jax.jit"},
		{Name: "jax.experimental.maps.xmap", Role: RoleAxisBinder,
			Deprecated: V(0, 4, 26), Removed: V(0, 4, 31), ReplacedBy: "jax.experimental.shard_map.shard_map",
			Note: "xmap was deprecated in 0.4.26 and removed in 0.4.31"},
		{Name: "jax.experimental.custom_partitioning.custom_partitioning", Role: RoleCustomPartitioning},
		{Name: "jax.lax.axis_index", Role: RoleAxisIndex},
		{Name: "jax.lax.axis_size", Role: RoleAxisSize, Since: V(0, 6, 1)},
		{Name: "jax.lax.psum", Role: RoleCollective},
		{Name: "jax.lax.pmean", Role: RoleCollective},
		{Name: "jax.lax.pmax", Role: RoleCollective},
		{Name: "jax.lax.pmin", Role: RoleCollective},
		{Name: "jax.lax.ppermute", Role: RoleCollective},
		{Name: "jax.lax.pshuffle", Role: RoleCollective},
		{Name: "jax.lax.all_gather", Role: RoleCollective},
		{Name: "jax.lax.all_to_all", Role: RoleCollective},
		{Name: "jax.lax.psum_scatter", Role: RoleCollective},
		{Name: "jax.vmap", Role: RoleAxisBinder},
		// jax/__init__.py re-exports jax.ref.empty_ref from the 0.9.1 tag on.
		{Name: "jax.empty_ref", Since: V(0, 9, 1)},
		{Name: "jax.ShapeDtypeStruct", Note: "its vma= keyword became manual_axis_type= in 0.10.0"},
		// Staging without running. jit(f).lower(...) and .trace(...) are
		// methods of the jitted function (the analysis models them there);
		// these are the free functions. Export lowers, so it reaches every
		// layer of Predict; make_jaxpr and eval_shape stop after tracing.
		{Name: "jax.export.export", Role: RoleExport, Since: V(0, 4, 30)},
		{Name: "jax.experimental.export.export", Role: RoleExport,
			Note: "the pre-0.4.30 spelling of jax.export.export"},
		{Name: "jax.make_jaxpr", Role: RoleTraceWrap},
		{Name: "jax.eval_shape", Role: RoleTraceCall},
		// jax/__init__.py exports new_ref from the 0.7.2 tag on.
		{Name: "jax.new_ref", Role: RoleNewRef, Since: NewRefSince},
		// ... and freeze (a ref back to an array) from the 0.8.0 tag on.
		{Name: "jax.freeze", Since: V(0, 8, 0)},
		// Pytree maps: the analysis maps literal trees leaf by leaf, so
		// jax.tree.map(lambda s: NamedSharding(mesh, s), specs) keeps its
		// shardings. jax/tree.py exists from the 0.4.25 tag on.
		{Name: "jax.tree.map", Role: RoleTreeMap, Since: V(0, 4, 25)},
		{Name: "jax.tree_util.tree_map", Role: RoleTreeMap},
	}
	out = append(out, transparentAPIs()...)
	return append(out, meshAPIs()...)
}

// transparentAPIs call (or return) their function argument in the caller's
// context, so a kernel under them inherits whatever context reaches them.
// functools.partial is deliberately absent: the analysis binds its
// arguments itself.
func transparentAPIs() []API {
	names := []string{
		"jax.checkpoint", "jax.remat", "jax.named_call", "jax.named_scope",
		"jax.custom_vjp", "jax.custom_jvp",
		"jax.lax.cond", "jax.lax.switch", "jax.lax.while_loop", "jax.lax.fori_loop",
		"jax.lax.scan", "jax.lax.map",
	}
	out := make([]API, 0, len(names)+2)
	for _, n := range names {
		out = append(out, API{Name: n, Role: RoleTransparent})
	}
	for _, n := range []string{"checkpoint", "remat"} {
		out = append(out, API{Name: "jax.ad_checkpoint." + n, Role: RoleTransparent,
			Deprecated: V(0, 8, 2), Removed: V(0, 10, 0), ReplacedBy: "jax." + n,
			Note: "jax.ad_checkpoint." + n + " was deprecated in 0.8.2 and removed in 0.10.0; use jax." + n})
	}
	return out
}

// meshAPIs build meshes, set the context mesh, or carry shardings: the
// evidence PAL103 needs to call a jit multi-device.
func meshAPIs() []API {
	return []API{
		{Name: "jax.sharding.Mesh", Role: RoleMesh},
		{Name: "jax.sharding.AbstractMesh", Role: RoleMesh, Since: V(0, 4, 32)},
		{Name: "jax.make_mesh", Role: RoleMesh, Since: V(0, 4, 32),
			Note: "axis_types default to Explicit since 0.9.0"},
		// JAX's own test helper (jax/_src/test_util.py), which its
		// distributed Pallas tests build their meshes with: make_mesh
		// with Auto axes unless axis_types says otherwise (from 0.4.32).
		{Name: TestUtilCreateMesh, Role: RoleMesh, Since: V(0, 4, 32)},
		// jax/sharding.py exports AxisType from the 0.5.0 tag on.
		{Name: "jax.sharding.AxisType", Since: V(0, 5, 0)},
		{Name: "jax.set_mesh", Role: RoleSetMesh, Since: V(0, 7, 1)},
		{Name: "jax.sharding.set_mesh", Role: RoleSetMesh, Since: V(0, 5, 3)},
		{Name: "jax.sharding.use_mesh", Role: RoleSetMesh, Since: V(0, 5, 0),
			Removed: V(0, 7, 1), ReplacedBy: "jax.set_mesh", Note: "removed in 0.7.1 in favour of jax.set_mesh"},
		{Name: "jax.sharding.NamedSharding", Role: RoleShardingEvidence},
		{Name: "jax.sharding.PositionalSharding", Role: RoleShardingEvidence,
			Deprecated: V(0, 6, 0), Removed: V(0, 7, 0), ReplacedBy: "jax.sharding.NamedSharding",
			Note: "deprecated in 0.6.0 and removed in 0.7.0"},
		{Name: "jax.lax.with_sharding_constraint", Role: RoleShardingEvidence},
		{Name: "jax.sharding.ManualAxisType", Since: V(0, 10, 0),
			Note: "ShapeDtypeStruct(manual_axis_type=) takes one (jax/sharding.py exports it since 0.10.0)"},
		{Name: "jax.device_put", Role: RoleShardingEvidence,
			Note: "multi-device evidence only with a sharding argument"},
	}
}
