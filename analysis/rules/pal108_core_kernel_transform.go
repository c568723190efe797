package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL108 reports a core-mesh kernel (pl.kernel, core_map) traced under
// jax.vmap, or lowered under a legacy pmap, in the releases that cannot.
var PAL108 = &analysis.Analyzer{
	Code: "PAL108", Name: "core-kernel-transform", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Core-mesh kernel under vmap or a legacy pmap",
		What: "A TPU kernel launched over a core mesh (pl.kernel, or pltpu/pl core_map) is called, on a path from a " +
			"concrete entry point, under jax.vmap with JAX 0.8 to 0.11 (from 0.10 only when the batch size is known to " +
			"exceed 1: the vmapped function's first argument has a literal shape; a batch of 1 is squeezed, not batched; " +
			"0.11 only when the kernel has scratch buffers, which bind run_scoped), or under a pmap that jax_pmap_shmap_merge=False keeps legacy (JAX 0.8 and 0.9). " +
			"pallas_call batches and is not judged; releases before 0.8 are not judged either.",
		Why: "Tracing the batched kernel raises \"NotImplementedError: Batching rule for 'core_map' not implemented\" " +
			"(0.8, 0.9), \"mpmd_map only supports batching with a batch dimension of 1, got 8\" (0.10; pl.kernel binds " +
			"mpmd_map), \"Batching rule for 'run_scoped' not implemented\" (0.11, the body is batched); 0.12 batches it. " +
			"The legacy pmap cannot lower the kernel's internal mutable-array effect: \"ValueError: Cannot lower jaxpr " +
			"with effects: {InternalMutableArrayEffect}\". Either comes before any kernel lowering error.",
		Example:    "out = jax.vmap(step)(xs)  # step calls pl.kernel(...)",
		Fixed:      "out = jnp.stack([step(x) for x in xs])  # or: loop with lax.map, or move the batch into the kernel",
		FixSafety:  "No automatic fix: batching by hand changes the program.",
		Since:      "0.3.0",
		JAXVersion: "0.10.2",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)


def step(x):
    return pl.kernel(copy, out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=pltpu.create_tensorcore_mesh("core", num_cores=1))(x)


xs = jnp.ones((4, 8, 128), jnp.float32)
` + analysis.SnippetLine + `
`,
	},
	Run: runPAL108,
}

func runPAL108(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		t, tpu := onTPU(p, kc)
		if !tpu {
			continue
		}
		for _, r := range kc.Reaches {
			o, how, ok := coreKernelTransform(p.Version, kc, r)
			if !ok {
				continue
			}
			p.Report(targeted(p, t, analysis.Diagnostic{
				Location: kc.Site,
				Message: fmt.Sprintf("core-mesh kernel `%s` (%s) is called %s%s; %s: %s",
					kc.Kernel, entryName(kc), how, suffix(where(r)), fails(p, t), quoteError(o)),
				Related: pathRelated(r),
				Detail:  detail(p, o), JAXError: jaxError(o),
			}))
			break
		}
	}
}

// coreKernelTransform is what the transformation around a core-mesh
// kernel's reach r raises at v, and how the message names it.
func coreKernelTransform(v lowering.Version, kc *analysis.KernelCall, r analysis.Reach) (lowering.Outcome, string, bool) {
	if kc.Entry != "kernel" && kc.Entry != "core_map" || r.Library {
		return lowering.Outcome{}, "", false
	}
	if r.Vmapped {
		if o := lowering.CoreKernelUnderVmap(v, kc.Scratch, r.VmapWide); o.Fails {
			return o, "under jax.vmap", true
		}
	}
	if r.Kind == lowering.CtxPmap && r.PmapLegacy {
		if o := lowering.CoreKernelUnderLegacyPmap(v); o.Fails {
			return o, "under a legacy pmap (jax_pmap_shmap_merge=False)", true
		}
	}
	return lowering.Outcome{}, "", false
}

func entryName(kc *analysis.KernelCall) string {
	if kc.Entry == "kernel" {
		return "pl.kernel"
	}
	return "core_map"
}
