package rules

import (
	"fmt"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL213 reports in_specs whose length differs from the operands, and
// out_specs whose top differs from out_shape's.
var PAL213 = &analysis.Analyzer{
	Code: "PAL213", Name: "spec-tree-mismatch", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Spec lists do not match the operands or out_shape",
		What: "A literal `in_specs` sequence has another length than the operands the kernel is called with " +
			"(minus the `num_scalar_prefetch` leading ones); or `out_specs` does not match a literal `out_shape` at the " +
			"top: one BlockSpec for a sequence of outputs (even a sequence of one), a sequence of specs for one " +
			"output, or sequences of different lengths (a list counts as a tuple). Operands spread with `*args`, " +
			"lists that may grow after they are built, deeper mismatches and a single `in_specs` spec are not judged.",
		Why: "Pallas compares the trees while tracing and raises \"Pytree for `in_specs` and `inputs` do not " +
			"match.\" or \"Pytree for `out_specs` and `out_shape` do not match.\", naming the first mismatch " +
			"(\"Pytree specs for arguments and `in_specs` must match\" and \"Pytree specs for `out_shape` and " +
			"`out_specs` must match\" before JAX 0.4.31). Before 0.4.31 a TPU pallas_call with a grid also " +
			"needs in_specs and out_specs: without them Mosaic lowering raises \"NotImplementedError: BlockSpecs are " +
			"required on TPU when grid is specified\" (later releases map such operands whole).",
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
		if missing := missingSpecs(kc); missing != "" && lowering.MissingBlockSpecsOutcome(p.Version).Fails {
			r.report(kc.Decl, 0, fmt.Sprintf("TPU pallas_call has a grid but no %s; JAX before %s requires a BlockSpec for every operand and output then (%s)",
				missing, lowering.GridBlockSpecsOptionalSince, version(p)), lowering.MissingBlockSpecsOutcome(p.Version), nil)
		}
		if l := c.InSpecs; l.Known && !l.Single && c.OperandsKnown && c.NumScalarPrefetch >= 0 {
			if n := len(c.Operands) - c.NumScalarPrefetch; n >= 0 && n != len(l.Specs) {
				what := fmt.Sprintf("%d operands", n)
				if c.NumScalarPrefetch > 0 {
					what = fmt.Sprintf("%d operands after the %d scalar-prefetch ones", n, c.NumScalarPrefetch)
				}
				r.report(firstLoc(l.Loc, kc.Decl), 0, fmt.Sprintf("in_specs has %d entries but the kernel is called with %s", len(l.Specs), what),
					lowering.SpecTreeOutcome(p.Version, len(l.Specs), n), nil)
			}
		}
		if l := c.OutSpecs; l.Known && c.OutsKnown {
			specs := lowering.TopTree{Seq: !l.Single, Len: len(l.Specs), LeafItems: true}
			for _, s := range l.Specs {
				specs.LeafItems = specs.LeafItems && s.BlockSpec
			}
			outs := lowering.TopTree{Seq: !c.OutSingle, Len: len(c.Outs), LeafItems: true}
			for _, o := range c.Outs {
				outs.LeafItems = outs.LeafItems && o.Array
			}
			if !specs.Matches(outs) {
				r.report(firstLoc(l.Loc, kc.Decl), 0, "out_specs is "+treeText(specs, "BlockSpec")+" but out_shape is "+treeText(outs, "array"),
					lowering.OutSpecsTreeOutcome(p.Version, specs, outs), nil)
			}
		}
	}
}

// missingSpecs names the spec lists a TPU pallas_call with a known,
// non-empty grid leaves out, where an operand or output needs one: "" when
// none (or not known).
func missingSpecs(kc *analysis.KernelCall) string {
	c := kc.Config
	if !isTPU(kc) || c.Interpret || c.GridLen <= 0 {
		return ""
	}
	var missing []string
	if !c.InSpecs.Present && c.OperandsKnown && c.NumScalarPrefetch >= 0 && len(c.Operands) > c.NumScalarPrefetch {
		missing = append(missing, "in_specs")
	}
	if !c.OutSpecs.Present && c.OutsKnown && len(c.Outs) > 0 {
		missing = append(missing, "out_specs")
	}
	return strings.Join(missing, " and ")
}

// treeText describes a spec or out_shape top for a message.
func treeText(t lowering.TopTree, leaf string) string {
	if !t.Seq {
		return "one " + leaf
	}
	return fmt.Sprintf("a sequence of %d", t.Len)
}
