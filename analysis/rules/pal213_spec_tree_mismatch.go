package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL213 reports in_specs/out_specs whose length differs from the
// operands or out_shape.
var PAL213 = &analysis.Analyzer{
	Code: "PAL213", Name: "spec-tree-mismatch", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Spec lists do not match the operands or out_shape",
		What: "A literal `in_specs` sequence has another length than the operands the kernel is called with " +
			"(minus the `num_scalar_prefetch` leading ones), or a literal `out_specs` sequence another length " +
			"than a literal `out_shape` sequence. Operands spread with `*args`, out_shape values that may be " +
			"pytrees and single specs are not judged.",
		Why: "Pallas compares the trees while tracing and raises \"Pytree for `in_specs` and `inputs` do not " +
			"match.\" (\"Pytree specs for arguments and `in_specs` must match\" before JAX 0.4.31).",
		Example: "y = pl.pallas_call(add, out_shape=shape, grid=(2,), in_specs=[spec], out_specs=spec)(x, x)",
		Fixed:   "y = pl.pallas_call(add, out_shape=shape, grid=(2,), in_specs=[spec, spec], out_specs=spec)(x, x)",
		Since:   "0.2.0",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


x = jnp.ones((256, 512), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
spec = pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0))
` + analysis.SnippetLine + `
`,
	},
	Run: runPAL213,
}

func runPAL213(p *analysis.Pass) {
	r := newConfigReporter(p)
	for _, kc := range configs(p) {
		c := kc.Config
		if l := c.InSpecs; l.Known && !l.Single && c.OperandsKnown && c.NumScalarPrefetch >= 0 {
			if n := len(c.Operands) - c.NumScalarPrefetch; n >= 0 && n != len(l.Specs) {
				what := fmt.Sprintf("%d operands", n)
				if c.NumScalarPrefetch > 0 {
					what = fmt.Sprintf("%d operands after the %d scalar-prefetch ones", n, c.NumScalarPrefetch)
				}
				r.report(firstLoc(l.Loc, kc.Decl), 0, fmt.Sprintf("in_specs has %d entries but the kernel is called with %s", len(l.Specs), what),
					lowering.SpecTreeOutcome(p.Version, "in_specs", len(l.Specs), n), nil)
			}
		}
		if l := c.OutSpecs; l.Known && !l.Single && c.OutsKnown && !c.OutSingle && len(l.Specs) != len(c.Outs) {
			r.report(firstLoc(l.Loc, kc.Decl), 0, fmt.Sprintf("out_specs has %d entries but out_shape has %d", len(l.Specs), len(c.Outs)),
				lowering.SpecTreeOutcome(p.Version, "out_specs", len(l.Specs), len(c.Outs)), nil)
		}
	}
}
