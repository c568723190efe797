package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL212 reports BlockSpecs whose block rank, index map results or index
// map arity do not fit the array and the grid.
var PAL212 = &analysis.Analyzer{
	Code: "PAL212", Name: "block-spec-shape", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "BlockSpec does not fit its array or the grid",
		What: "A BlockSpec's block shape has another rank than its array; or its index map (a lambda, or a def " +
			"whose one return is its last statement, returning a literal tuple) returns another number of values than the block has dimensions; or its index map " +
			"cannot take the len(grid) grid indices plus the num_scalar_prefetch refs Pallas passes it. Judged " +
			"only on literal block shapes, known array shapes and a known grid.",
		Why: "Pallas checks the first two while tracing (\"Block shape for ... must have the same number of " +
			"dimensions as the array shape ...\", \"Index map function ... must return N values ...\", since JAX " +
			"0.4.31); the third is Python's own TypeError when the index map is called.",
		Example: "pl.BlockSpec(block_shape=(128, 128), index_map=lambda i: (i, 0))  # grid=(2, 4)",
		Fixed:   "pl.BlockSpec(block_shape=(128, 128), index_map=lambda i, j: (i, j))",
		Since:   "0.2.0",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2, 4),
    in_specs=[
` + analysis.SnippetLine + `
    ],
    out_specs=pl.BlockSpec(block_shape=(128, 128), index_map=lambda i, j: (i, j)),
)(x)
`,
	},
	Run: runPAL212,
}

func runPAL212(p *analysis.Pass) {
	eachConfig(p, func(kc *analysis.KernelCall, r *configReporter) {
		c := kc.Config
		if lowering.HasBlockRankCheck(p.Version) {
			for _, sa := range specArrays(c) {
				s := sa.spec
				if s.BlockSpec && s.BlockKnown && sa.shape != nil && len(s.Block) != len(sa.shape) {
					r.report(firstLoc(s.BlockLoc, s.Loc), 0, fmt.Sprintf("block shape %s has rank %d but %s has rank %d (shape %s)",
						shapeText(s.Block), len(s.Block), sa.what(), len(sa.shape), lowering.PyTuple(sa.shape)),
						lowering.BlockRankOutcome(p.Version, sa.shape), nil)
				}
			}
			for _, s := range allSpecs(c) {
				if im := s.IndexMap; im != nil && s.BlockKnown && im.Returns >= 0 && im.Returns != len(s.Block) {
					r.report(s.Loc, 0, fmt.Sprintf("index map returns %d values but block shape %s has %d dimensions",
						im.Returns, shapeText(s.Block), len(s.Block)), lowering.IndexMapReturnsOutcome(p.Version, len(s.Block), im.Returns), nil)
				}
			}
		}
		if c.GridLen < 0 || c.NumScalarPrefetch < 0 {
			return
		}
		n := c.GridLen + c.NumScalarPrefetch
		for _, s := range allSpecs(c) {
			im := s.IndexMap
			if im == nil {
				continue
			}
			o := lowering.ArityOutcome(im.Name, im.Sig.Names, im.Sig.Required, im.Sig.Max, im.Sig.VarArgs, n)
			if !o.Fails {
				continue
			}
			r.report(firstLoc(s.IndexMapLoc, s.Loc), 0, fmt.Sprintf("index map takes %s but Pallas passes it %d (%s)",
				arityText(im.Sig), n, passedIndices(c)), o, nil)
		}
	})
}

func firstLoc(locs ...analysis.Location) analysis.Location {
	for _, l := range locs {
		if l.File != "" {
			return l
		}
	}
	return analysis.Location{}
}

func arityText(s analysis.Signature) string {
	switch {
	case s.VarArgs:
		return fmt.Sprintf("at least %d arguments", s.Required)
	case s.Required != s.Max:
		return fmt.Sprintf("%d to %d arguments", s.Required, s.Max)
	}
	return fmt.Sprintf("%d arguments", s.Max)
}

func passedIndices(c *analysis.KernelConfig) string {
	s := fmt.Sprintf("len(grid) = %d", c.GridLen)
	if c.NumScalarPrefetch > 0 {
		s += fmt.Sprintf(" plus %d scalar-prefetch refs", c.NumScalarPrefetch)
	}
	return s
}
