package lowering

import "strconv"

// What JAX raises for kernel-configuration mistakes (jax-errors.md §1, §6,
// §7), per version; the oracle (oracle/results) checks every wording.

// AllowCollectiveIDSince is the first version whose pltpu.CompilerParams
// has allow_collective_id_without_custom_barrier (7743b9c939).
var AllowCollectiveIDSince = V(0, 7, 2)

// TPUParamsDictQual names the dict form of the TPU compiler params,
// compiler_params={"mosaic": {...}}, which pallas_call_registration read
// with mosaic_params.get(...) up to 0.6.0; from TPUParamsDictUntil
// (0.6.1, _normalize_compiler_params) a dict must map backends to params
// objects and "mosaic" is an unknown backend.
const TPUParamsDictQual = "dict(mosaic=...)"

// TPUParamsDictUntil is the first version that rejects the dict form.
var TPUParamsDictUntil = V(0, 6, 1)

// AutoAssignCollectiveIDsSince is the first version with the
// jax_pallas_auto_assign_collective_ids configuration.
var AutoAssignCollectiveIDsSince = V(0, 10, 2)

// CollectiveIDMissing is the custom-call error of a kernel that uses the
// barrier semaphore without a collective_id. 0.11.0 (4c17651abc) added the
// parenthesis, when ids could be auto-assigned.
func CollectiveIDMissing(v Version) Outcome {
	msg := "collective_id has to be specified when using a custom barrier"
	if v.AtLeast(V(0, 11, 0)) {
		msg += " (cannot auto-allocate without lowering context)"
	}
	return Outcome{Fails: true, Layer: LayerCustomCall, Error: "ValueError", Message: msg, Where: whereCustomCall}
}

// CollectiveIDSpurious is the custom-call error of a kernel given a
// collective_id that uses no barrier semaphore (unchanged since 0.4.14).
func CollectiveIDSpurious() Outcome {
	return Outcome{Fails: true, Layer: LayerCustomCall, Error: "ValueError",
		Message: "collective_id has to be unspecified or None when not using a custom barrier", Where: whereCustomCall}
}

// The compiler params classes, as the API table names them.
const (
	TPUParamsQual       = pltpu + "CompilerParams"
	TPUParamsOldQual    = pltpu + "TPUCompilerParams"
	GPUParamsQual       = plgpu + "CompilerParams"
	GPUParamsOldQual    = plgpu + "GPUCompilerParams"
	TritonParamsQual    = pltriton + "CompilerParams"
	TritonParamsOldQual = pltriton + "TritonCompilerParams"
)

// MeshInfoInShardMap reports whether Pallas lowering inside a shard_map
// body has the device mesh: only when it saw communication at the Pallas
// level (the flag of jax-semantics §2a). Without it a MESH id fails on the
// missing mesh (NoMeshDeviceID).
func MeshInfoInShardMap(v Version, eff Effects) bool { return eff.normalized().pallasFlag(v) }

// NoMeshDeviceID is the failure of a MESH device id converted without a
// device mesh: inside a shard_map, when the kernel does not set the
// Pallas-level flag (no axis_index on a device axis; no dict id before
// 0.8.2; no signal device_id before 0.7.0), Pallas lowering gets no mesh.
// ok is false when the kernel has the mesh or no MESH id. Whether it is the
// first error in a context is Predict's to say.
func NoMeshDeviceID(v Version, eff Effects) (Outcome, bool) {
	eff = eff.normalized()
	if eff.pallasFlag(v) || eff.MeshKernel || !eff.needsMesh(v) {
		return Outcome{}, false
	}
	return meshIDOutcome(v, eff.DeviceIDs), true
}

// DeviceIDCountSince is the first version that checks the number of
// entries of a MESH device id against the mesh rank (6c6d5993a2). Before,
// the lowering zipped ids with mesh strides through safe_zip, which raises
// its own ValueError (the oracle sees it from 0.4.33 to 0.7.2; jax-errors.md
// §7 said 0.7.x truncated silently, which JAX refutes).
var DeviceIDCountSince = V(0, 8, 1)

// DictDeviceIDsSince is the first version that reads a dict device id by
// axis name, completing the axes it leaves out.
var DictDeviceIDsSince = V(0, 7, 1)

// DeviceIDCount is the lowering error of a MESH device id with n entries
// on a k-axis mesh (n != k), or false where the version raises nothing
// pallas-ls knows.
func DeviceIDCount(v Version, n, k int) (Outcome, bool) {
	o := Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError", Where: wherePrimitives}
	switch {
	case v.AtLeast(DeviceIDCountSince):
		o.Message = "Number of device ids must match the number of mesh axes, but got " +
			strconv.Itoa(n) + " ids for a " + strconv.Itoa(k) + "D mesh."
	default:
		// safe_zip(device ids, mesh axes): the second argument is the
		// mesh's axes.
		rel := "longer"
		if n > k {
			rel = "shorter"
		}
		o.Message, o.Where = "safe_zip() argument 2 is "+rel+" than argument 1", "jax/_src/util.py"
	}
	return o, true
}

// UnrecognizedDeviceAxes is the lowering error of a dict device id with
// keys that are neither mesh nor core axes; JAX prints the leftover keys
// with their traced values, which only run time knows.
// Dict ids are read by name since 0.7.1 (19933596bf); before, their
// values were flattened like a tuple (DeviceIDCount applies).
func UnrecognizedDeviceAxes(v Version) (Outcome, bool) {
	if v.Less(DictDeviceIDsSince) {
		return Outcome{}, false
	}
	return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError",
		Message: "Unrecognized axes in device_id: {axes}", Where: whereMosaicLower}, true
}

// ParamsBackend is the platform a compiler params class is for.
func ParamsBackend(qual string) Backend {
	switch qual {
	case TPUParamsQual, TPUParamsOldQual:
		return BackendTPU
	case GPUParamsQual, GPUParamsOldQual, TritonParamsQual, TritonParamsOldQual:
		return BackendGPU
	}
	return BackendUnknown
}

// What lowering a kernel for one platform does with params of the other
// (oracle-checked on 0.6.2 to 0.12): ignored up to 0.8.1; from 0.8.2
// (3349e7a146) the params' BACKEND picks the backend and TPU lowering
// rejects any other ("Only mosaic backend supported for TPU"); 0.9.1
// (0bd8fca8f1) keeps one params object and the TPU rule asserts its class;
// 0.10.0 (07af98c7c5) looks the class up in a registry, which 0.10.2
// (9fd2c9811b) fills only for the platform being lowered, so there the
// assert is met again, until 0.11 registers Triton when pltriton is
// imported.
var (
	ParamsBackendSince = V(0, 8, 2)
	ParamsAssertSince  = V(0, 9, 1)
)

// ParamsPlatformOutcome is what lowering a kernel for platform kernel does
// with compiler params of class qual for the other platform. ok is false
// where JAX ignores them. A GPU kernel's message depends on what the
// process lowered before (jax-errors §1), so from 0.10 it has no Message.
func ParamsPlatformOutcome(v Version, qual string, kernel Backend) (o Outcome, ok bool) {
	if v.Less(ParamsBackendSince) {
		return Outcome{}, false
	}
	const registration = "jax/_src/pallas/mosaic/pallas_call_registration.py"
	const pallasCall = "jax/_src/pallas/pallas_call.py"
	triton := qual == TritonParamsQual || qual == TritonParamsOldQual
	registry := v.AtLeast(V(0, 10, 0)) && v.Less(V(0, 10, 2)) || triton && v.AtLeast(V(0, 11, 0))
	switch {
	case kernel == BackendTPU && v.Less(ParamsAssertSince):
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError",
			Message: "Only mosaic backend supported for TPU", Where: pallasCall}, true
	case kernel == BackendTPU && registry:
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError",
			Message: "Compiler params for platform gpu cannot be used for tpu lowering.", Where: "jax/_src/pallas/core.py"}, true
	case kernel == BackendTPU:
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "AssertionError", Where: registration}, true
	case kernel == BackendGPU && v.Less(ParamsAssertSince):
		return Outcome{}, false // GPU lowering reads its own params from the mapping
	case kernel == BackendGPU && v.Less(V(0, 10, 0)):
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError",
			Message: "Cannot lower pallas_call on platform: gpu. To use Pallas on GPU, install jaxlib GPU. " +
				"To use Pallas on TPU, install jaxlib TPU and libtpu. See https://docs.jax.dev/en/latest/installation.html.",
			Where: pallasCall}, true
	case kernel == BackendGPU:
		return Outcome{Fails: true, Layer: LayerPallasLowering, Where: pallasCall}, true
	}
	return Outcome{}, false
}

// CoreMeshSpacesSince is the first version where `memory space @ mesh`
// takes a mesh and checks the mesh's supported_memory_spaces (a6565a8ca0);
// 0.10.0 took a core type, and older versions have no `@` at all.
var CoreMeshSpacesSince = V(0, 10, 1)

// CoreMeshKind is a kind of TPU core mesh, by its constructor.
type CoreMeshKind string

const (
	TensorCoreMesh    CoreMeshKind = "TensorCoreMesh"
	ScalarSubcoreMesh CoreMeshKind = "ScalarSubcoreMesh"
	VectorSubcoreMesh CoreMeshKind = "VectorSubcoreMesh"
)

// CoreMeshConstructors maps the constructors of TPU core meshes to the
// kind of mesh they build.
var CoreMeshConstructors = map[string]CoreMeshKind{
	pltpu + "TensorCoreMesh":         TensorCoreMesh,
	pltpu + "create_tensorcore_mesh": TensorCoreMesh,
	plsc + "ScalarSubcoreMesh":       ScalarSubcoreMesh,
	plsc + "VectorSubcoreMesh":       VectorSubcoreMesh,
}

// meshSpaces are each mesh's supported_memory_spaces (mosaic/core.py
// TensorCoreMesh, mosaic/sc_core.py; the same from 0.10.1 to 0.12), by
// the pltpu names of the spaces.
var meshSpaces = map[CoreMeshKind][]string{
	TensorCoreMesh:    {"VMEM", "SMEM", "CMEM", "SEMAPHORE"},
	ScalarSubcoreMesh: {"VMEM_SHARED", "SMEM", "SEMAPHORE"},
	VectorSubcoreMesh: {"VMEM", "VMEM_SHARED", "SMEM", "SEMAPHORE"},
}

// memorySpaceStr is str() of each pltpu.MemorySpace member: its value.
var memorySpaceStr = map[string]string{
	"VMEM": "vmem", "VMEM_SHARED": "vmem_shared", "SMEM": "smem", "CMEM": "cmem",
	"SEMAPHORE": "semaphore_mem", "HBM": "hbm",
}

// IsTPUMemorySpace reports whether name is a member of pltpu.MemorySpace.
func IsTPUMemorySpace(name string) bool { _, ok := memorySpaceStr[name]; return ok }

// MeshSupports reports whether a mesh of kind k takes memory space ms (a
// pltpu.MemorySpace member name).
func MeshSupports(k CoreMeshKind, ms string) bool {
	for _, s := range meshSpaces[k] {
		if s == ms {
			return true
		}
	}
	return false
}

// MemorySpaceMeshOutcome is the ValueError of CoreMemorySpace.__post_init__
// for space ms on a mesh printed as meshRepr ("" when the repr is not
// known: JAX prints the mesh dataclass, whose fields vary).
func MemorySpaceMeshOutcome(ms, meshRepr string) Outcome {
	if meshRepr == "" {
		meshRepr = "{mesh}"
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError",
		Message: "Memory space " + memorySpaceStr[ms] + " is not supported by mesh " + meshRepr, Where: "jax/_src/pallas/core.py"}
}

// MeshSpaces lists the spaces a mesh kind takes, for messages.
func MeshSpaces(k CoreMeshKind) []string { return meshSpaces[k] }
