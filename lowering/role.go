package lowering

// Role says what a JAX or Pallas API does to the analysis: whether it
// creates a kernel, establishes an SPMD context, communicates, or only
// carries evidence (mesh, sharding, backend). The analysis reacts to roles,
// never to spellings, so a new JAX spelling only needs a table row.
type Role int

// Roles of API entries. Their order is part of no contract; use String for
// display and compare against the constants.
const (
	RoleUnknown            Role = iota
	RolePallasCall              // pl.pallas_call(kernel, ...): returns a callable; calling it runs the kernel
	RoleKernelEntry             // pl.kernel (call, decorator, partial-decorator forms), plgpu.kernel
	RoleCoreMap                 // pl.core_map(mesh): decorator that runs the body at decoration time
	RoleShardMap                // jax.shard_map, jax.experimental.shard_map.shard_map
	RoleSmap                    // jax.smap: manual over exactly its axis_name
	RolePmap                    // jax.pmap: legacy replica context below 0.8.0
	RoleJit                     // jax.jit, pjit
	RoleTransparent             // wrappers and control flow that call their function in the caller's context
	RoleRemoteComm              // remote DMA or signal: communicates when given a device id that is not core-only
	RoleLocalOp                 // chip-local DMA, semaphore and barrier operations
	RoleAxisIndex               // jax.lax.axis_index: communication marker on a device-mesh axis
	RoleAxisSize                // jax.lax.axis_size: constant-folded, never communication
	RoleSelfWrapping            // library ops that wrap themselves in shard_map
	RoleMesh                    // device mesh constructors
	RoleSetMesh                 // context-mesh setters
	RoleShardingEvidence        // evidence that a computation spans more than one device
	RoleCustomPartitioning      // custom_partitioning: its partition functions run fully manual
	RoleTPUCompilerParams       // backend evidence: TPU
	RoleGPUCompilerParams       // backend evidence: GPU
	RoleCoreMesh                // chip-local meshes (TensorCore, subcores): not an SPMD context
	RoleDeviceIdType            // DeviceIdType enum holder (MESH / LOGICAL)
	RoleInterpretParams         // interpret-mode parameters: Mosaic layers are skipped
	RoleCollective              // lax.psum, ppermute, all_gather, ...: needs its axis names bound (collectives.go)
	RoleAxisBinder              // jax.vmap (axis_name=, spmd_axis_name=), xmap: binds axis names for collectives
	RoleExport                  // jax.export.export(f): calling the result lowers f (every layer) without running it
	RoleTraceWrap               // jax.make_jaxpr(f): calling the result traces f, nothing is lowered
	RoleTraceCall               // jax.eval_shape(f, *args): traces f now, nothing is lowered
	RoleNewRef                  // jax.new_ref(x, memory_space=...): a ref in a memory space only inside a jit
	RoleTreeMap                 // jax.tree.map(f, tree, *rest): calls f on the leaves, returns a tree of its results
	RoleKernelOp                // a TPU kernel bundled with JAX (flash_attention): calling it runs a local Mosaic kernel
	RoleKernelOpFactory         // make_splash_mha(...): returns a callable that runs a local Mosaic kernel
)

var roleNames = [...]string{
	RoleUnknown:            "unknown",
	RolePallasCall:         "pallas-call",
	RoleKernelEntry:        "kernel-entry",
	RoleCoreMap:            "core-map",
	RoleShardMap:           "shard-map",
	RoleSmap:               "smap",
	RolePmap:               "pmap",
	RoleJit:                "jit",
	RoleTransparent:        "transparent",
	RoleRemoteComm:         "remote-comm",
	RoleLocalOp:            "local-op",
	RoleAxisIndex:          "axis-index",
	RoleAxisSize:           "axis-size",
	RoleSelfWrapping:       "self-wrapping",
	RoleMesh:               "mesh",
	RoleSetMesh:            "set-mesh",
	RoleShardingEvidence:   "sharding-evidence",
	RoleCustomPartitioning: "custom-partitioning",
	RoleTPUCompilerParams:  "tpu-compiler-params",
	RoleGPUCompilerParams:  "gpu-compiler-params",
	RoleCoreMesh:           "core-mesh",
	RoleDeviceIdType:       "device-id-type",
	RoleInterpretParams:    "interpret-params",
	RoleCollective:         "collective",
	RoleAxisBinder:         "axis-binder",
	RoleExport:             "export",
	RoleTraceWrap:          "trace-wrap",
	RoleTraceCall:          "trace-call",
	RoleNewRef:             "new-ref",
	RoleTreeMap:            "tree-map",
	RoleKernelOp:           "kernel-op",
	RoleKernelOpFactory:    "kernel-op-factory",
}

// String returns a stable kebab-case name, used in hover text and tests.
func (r Role) String() string {
	if r < 0 || int(r) >= len(roleNames) {
		return "unknown"
	}
	return roleNames[r]
}

// Backend is the kernel backend an API is evidence for. TPU rules (every
// outcome of Predict) apply only to kernels that are not GPU kernels.
type Backend int

// Backends.
const (
	BackendUnknown Backend = iota
	BackendTPU
	BackendGPU
)

// String returns "unknown", "tpu" or "gpu".
func (b Backend) String() string {
	switch b {
	case BackendTPU:
		return "tpu"
	case BackendGPU:
		return "gpu"
	}
	return "unknown"
}

// Status is what an API or keyword is at a given JAX version.
type Status int

// Statuses. PAL301 reports StatusNotYet like StatusRemoved, but only when
// the JAX version is known exactly (a flag, a setting or an == pin): a
// lower bound or the default may be older than what the project runs.
const (
	StatusOK Status = iota
	StatusNotYet
	StatusDeprecated
	StatusRemoved
)

// String returns "ok", "not-yet", "deprecated" or "removed".
func (s Status) String() string {
	switch s {
	case StatusNotYet:
		return "not-yet"
	case StatusDeprecated:
		return "deprecated"
	case StatusRemoved:
		return "removed"
	}
	return "ok"
}

// statusAt is shared by APIs and keywords so both follow one rule:
// Removed <= v is removed, Deprecated <= v < Removed is deprecated, and a
// zero bound never applies.
func statusAt(v, since, deprecated, removed Version) Status {
	switch {
	case !since.IsZero() && v.Less(since):
		return StatusNotYet
	case !removed.IsZero() && v.AtLeast(removed):
		return StatusRemoved
	case !deprecated.IsZero() && v.AtLeast(deprecated):
		return StatusDeprecated
	}
	return StatusOK
}
