package lowering

import (
	"maps"
	"slices"
)

// JAX ships Pallas TPU kernels of its own under
// jax.experimental.pallas.ops.tpu (flash and paged attention, splash
// attention's kernels, megablox's grouped matmul, ragged paged attention,
// the Pallas PRNGs). A call of one runs a Mosaic TPU kernel that does not
// communicate, exactly as a user's pl.pallas_call would: under a jit over
// several devices it fails with "Mosaic kernels cannot be automatically
// partitioned", inside a fully manual shard_map it is fine. The analysis
// never reads JAX's source, so which functions do that is data, generated
// from each recorded release's source (kernel_ops_gen.go, by
// lowering/gen/kernel_ops.py: a function runs a kernel when it names
// pallas_call or a function of the package that does).

// kernelOpSet is one release's bundled ops (kernel_ops_gen.go).
type kernelOpSet struct {
	Version      string
	Kernels      []string // calling it runs a kernel on its arguments
	Factories    []string // returns a callable that runs a kernel (make_splash_mha)
	SelfWrapping []string // runs its kernel inside a shard_map of its own
}

// kernelOpAPIs are the bundled ops of every recorded release, as APIs of
// role RoleKernelOp or RoleKernelOpFactory. They carry no Since: a name
// first recorded in one release may have come in an unrecorded one
// before it, and no rule reports an op's availability. The self-wrapping
// ops are rows of tpuAPIs already (TestKernelOpsSelfWrapping).
func kernelOpAPIs() []API {
	roles := map[string]Role{}
	for _, set := range kernelOps {
		for _, n := range set.Kernels {
			roles[n] = RoleKernelOp
		}
		for _, n := range set.Factories {
			roles[n] = RoleKernelOpFactory
		}
	}
	out := make([]API, 0, len(roles))
	for _, n := range slices.Sorted(maps.Keys(roles)) {
		out = append(out, API{Name: n, Role: roles[n], Backend: BackendTPU,
			Note: "a Pallas TPU kernel bundled with JAX"})
	}
	return out
}
