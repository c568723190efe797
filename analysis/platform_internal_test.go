package analysis

import (
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestModuleBackendShortcut: the shortcut for modules that name no pallas
// answers what the full comparison does.
func TestModuleBackendShortcut(t *testing.T) {
	full := func(m string) lowering.Backend {
		under := func(p string) bool { return m == p || strings.HasPrefix(m, p+".") }
		for _, p := range []string{"jax.experimental.pallas.mosaic_gpu", "jax.experimental.pallas.triton",
			"jax.experimental.pallas.gpu", "jax._src.pallas.mosaic_gpu", "jax._src.pallas.triton",
			"jax.experimental.pallas.ops.gpu", "jax_triton"} {
			if under(p) {
				return lowering.BackendGPU
			}
		}
		for _, p := range []string{"jax.experimental.pallas.tpu", "jax.experimental.pallas.tpu_sc",
			"jax._src.pallas.mosaic", "jax.experimental.pallas.ops.tpu"} {
			if under(p) {
				return lowering.BackendTPU
			}
		}
		return lowering.BackendUnknown
	}
	for _, m := range []string{"jax", "jax.numpy", "numpy", "jax_triton", "jax_triton.utils", "jax_tritonx",
		"jax.experimental.pallas", "jax.experimental.pallas.tpu", "jax.experimental.pallas.tpu_sc.ops",
		"jax.experimental.pallas.tpux", "jax._src.pallas.mosaic", "jax._src.pallas.mosaic_gpu.core",
		"jax.experimental.pallas.triton", "jax.experimental.pallas.ops.gpu.attention", "jax.experimental.pallas.ops.tpu.flash",
		"my.pallas.tpu", "torch", ""} {
		if got, want := moduleBackend(m), full(m); got != want {
			t.Errorf("moduleBackend(%q) = %v, want %v", m, got, want)
		}
	}
}
