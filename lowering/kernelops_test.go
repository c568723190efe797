package lowering

import "testing"

// The generated table (kernel_ops_gen.go) is read as APIs: every kernel
// and factory of every recorded release resolves to its role and the TPU
// backend, and what JAX's source says wraps itself in shard_map is a
// self-wrapping row of the hand-written table, not a kernel.
func TestKernelOpsAsAPIs(t *testing.T) {
	if len(kernelOps) == 0 {
		t.Fatal("kernel_ops_gen.go lists no release")
	}
	for _, set := range kernelOps {
		for _, names := range []struct {
			names []string
			role  Role
		}{{set.Kernels, RoleKernelOp}, {set.Factories, RoleKernelOpFactory}, {set.SelfWrapping, RoleSelfWrapping}} {
			for _, n := range names.names {
				a, ok := Lookup(n)
				if !ok || a.Role != names.role || a.Backend != BackendTPU {
					t.Errorf("%s (JAX %s): Lookup = %+v, %v; want role %v, backend TPU", n, set.Version, a, ok, names.role)
				}
			}
		}
	}
	for _, n := range []string{
		"jax.experimental.pallas.ops.tpu.flash_attention.flash_attention",
		"jax.experimental.pallas.ops.tpu.paged_attention.paged_attention",
		"jax.experimental.pallas.ops.tpu.megablox.gmm",
	} {
		if a, _ := Lookup(n); a.Role != RoleKernelOp {
			t.Errorf("%s: role %v, want kernel-op", n, a.Role)
		}
	}
	if a, _ := Lookup("jax.experimental.pallas.ops.tpu.splash_attention.make_splash_mha"); a.Role != RoleKernelOpFactory {
		t.Errorf("make_splash_mha: role %v, want kernel-op-factory", a.Role)
	}
	// Reference implementations and mask builders run no kernel.
	for _, n := range []string{
		"jax.experimental.pallas.ops.tpu.flash_attention.mha_reference",
		"jax.experimental.pallas.ops.tpu.splash_attention.splash_attention_mask.CausalMask",
	} {
		if a, ok := Lookup(n); ok && (a.Role == RoleKernelOp || a.Role == RoleKernelOpFactory) {
			t.Errorf("%s: role %v, want none", n, a.Role)
		}
	}
}
