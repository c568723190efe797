package rules

import (
	"fmt"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL215 reports operations in TPU kernel bodies that the configured
// JAX's Mosaic lowering has no rule for.
var PAL215 = &analysis.Analyzer{
	Code: "PAL215", Name: "unsupported-primitive", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Operation Mosaic cannot lower in a TPU kernel",
		What: "A jnp/lax operation in the body of a TPU pallas_call (or a function it calls) binds a primitive " +
			"that the configured JAX version's Pallas Mosaic lowering has no rule for: cumsum, sort, " +
			"lax.scatter*, erfc, the inverse trigonometric functions in every version; cos and tan before 0.4.34; erf and atan2 " +
			"before 0.9; top_k before 0.11 (the per-version table in lowering/ is generated from each " +
			"version's registered rules); and before 0.4.32 jnp.remainder, which Python's `%` on a traced value " +
			"(lax.axis_index, pl.program_id, arithmetic on them) calls: its lowering compares two booleans, " +
			"\"NotImplementedError: Mixed dtype operands in cmp\". Not judged in interpret mode or on GPU.",
		Why: "Lowering the kernel raises \"NotImplementedError: Unimplemented primitive in Pallas TPU lowering " +
			"...\" pointing at the kernel line.",
		Example: "    o_ref[...] = jnp.cumsum(x_ref[...], axis=1)",
		Fixed:   "    o_ref[...] = x_ref[...] @ jnp.triu(jnp.ones((128, 128), jnp.float32))",
		Since:   "0.2.0",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

FULL = pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (0, 0))


def prefix_sum(x_ref, o_ref):
` + analysis.SnippetLine + `


x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(
    prefix_sum,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(1,), in_specs=[FULL], out_specs=FULL),
)(x)
`,
	},
	Run: runPAL215,
}

func runPAL215(p *analysis.Pass) {
	eachConfig(p, func(kc *analysis.KernelCall, r *configReporter) {
		if !isTPU(kc) || kc.Config.Interpret {
			return
		}
		for _, bc := range kc.BodyCalls {
			if o := lowering.RemainderOutcome(p.Version, bc.API); o.Fails {
				r.report(bc.Location, 0, fmt.Sprintf("`%%` (jnp.remainder) in TPU kernel `%s` compares two booleans, which Mosaic cannot lower before JAX %s (%s); lax.rem gives the same result for non-negative operands",
					kc.Kernel, lowering.BoolCompareSince, version(p)), o, nil)
				continue
			}
			prim, ok := lowering.APIPrimitive(bc.API)
			if !ok {
				continue
			}
			if lowers, known := lowering.MosaicLowers(p.Version, prim); !known || lowers {
				continue
			}
			api := strings.Replace(strings.Replace(bc.API, "jax.numpy.", "jnp.", 1), "jax.lax.", "lax.", 1)
			if bc.API == analysis.IntFloorDivAPI {
				api = "//" // jnp.floor_divide on integers
			}
			r.report(bc.Location, 0, fmt.Sprintf("`%s` in TPU kernel `%s` binds the %s primitive, which Mosaic cannot lower in %s",
				api, kc.Kernel, prim, version(p)), lowering.UnimplementedPrimitiveOutcome(p.Version, prim), nil)
		}
	})
}
