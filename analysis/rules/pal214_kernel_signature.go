package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL214 reports kernels whose positional parameters cannot take the refs
// Pallas passes.
var PAL214 = &analysis.Analyzer{
	Code: "PAL214", Name: "kernel-signature", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Kernel signature does not take the refs Pallas passes",
		What: "Pallas calls the kernel with one argument per scalar-prefetch operand, input, output and scratch " +
			"shape (a pytree operand is one argument: a pytree of refs), after the positional arguments bound by " +
			"functools.partial. The kernel's positional " +
			"parameters (a plain def or lambda) cannot take that many. Judged only when the operands, " +
			"out_shape and scratch_shapes are known.",
		Why:     "The kernel is called while tracing: Python raises \"kernel() takes 2 positional arguments but 3 were given\" (or \"missing 1 required positional argument\").",
		Example: "y = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x, x)",
		Fixed:   "y = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)",
		Since:   "0.2.0",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.ones((256, 512), jnp.float32)
` + analysis.SnippetLine + `
`,
	},
	Run: runPAL214,
}

func runPAL214(p *analysis.Pass) {
	r := newConfigReporter(p)
	for _, kc := range configs(p) {
		c := kc.Config
		k := c.Kernel
		if !k.Known || !c.OperandsKnown || !c.OutsKnown || c.Scratch < 0 {
			continue
		}
		refs := len(c.Operands) + len(c.Outs) + c.Scratch
		o := lowering.ArityOutcome(k.Name, k.Sig.Names, k.Sig.Required, k.Sig.Max, k.Sig.VarArgs, k.Bound+refs)
		if !o.Fails {
			continue
		}
		parts := fmt.Sprintf("%d operands, %d outputs, %d scratch", len(c.Operands), len(c.Outs), c.Scratch)
		if k.Bound > 0 {
			parts += fmt.Sprintf(", after %d bound by functools.partial", k.Bound)
		}
		r.report(k.Loc, 0, fmt.Sprintf("kernel `%s` takes %s but Pallas calls it with %d (%s)", k.Name, arityText(k.Sig), k.Bound+refs, parts), o, nil)
	}
}
