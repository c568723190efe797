package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL211 reports TPU block shapes whose last two dimensions break the
// (8, 128) tiling.
var PAL211 = &analysis.Analyzer{
	Code: "PAL211", Name: "block-shape-tiling", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Block shape not tiled (8, 128) nor equal to the array",
		What: "A BlockSpec of a TPU pallas_call has a block shape of rank 2 or more whose last dimension is " +
			"neither a multiple of 128 nor the array's last dimension, or whose second-to-last is neither a " +
			"multiple of 8 nor the array's. Judged only where the block and the array's shape are known " +
			"(literals, arithmetic on them, `x.shape` of `jnp.ones((m, n))`, `jax.ShapeDtypeStruct`); squeezed " +
			"dimensions (`None`, `pl.Squeezed()`) count as 1. A block in memory space ANY must be the whole array. " +
			"Blocks in another explicit memory space (SMEM, VMEM), rank-1 blocks and interpret mode are not judged.",
		Why: "Since JAX 0.4.31 the Pallas TPU lowering raises \"The Pallas TPU lowering currently requires that " +
			"the last two dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to " +
			"the respective dimensions of the overall array.\"; before, Mosaic's compiler failed later with a " +
			"layout error.",
		Example: "pl.BlockSpec(block_shape=(128, 100), index_map=lambda i: (i, 0))  # array (256, 512)",
		Fixed:   "pl.BlockSpec(block_shape=(128, 128), index_map=lambda i: (i, 0))",
		Since:   "0.2.0",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct((256, 512), jnp.float32),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(2,),
        in_specs=[
` + analysis.SnippetLine + `
        ],
        out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0)),
    ),
)(x)
`,
	},
	Run: runPAL211,
}

func runPAL211(p *analysis.Pass) {
	r := newConfigReporter(p)
	for _, kc := range configs(p) {
		if !isTPU(kc) || kc.Config.Interpret {
			continue
		}
		for _, sa := range specArrays(kc.Config) {
			s := sa.spec
			if !s.BlockSpec || !s.BlockKnown || sa.shape == nil || len(s.Block) != len(sa.shape) {
				continue
			}
			if s.MemorySpace == "ANY" {
				if o := lowering.AnyWindowOutcome(p.Version); o.Fails && windowDim(s.Block, sa.shape) >= 0 {
					r.report(firstLoc(s.BlockLoc, s.Loc), 0, fmt.Sprintf("block shape %s of %s in memory space ANY is not the whole array %s",
						shapeText(s.Block), sa.what, lowering.PyTuple(sa.shape)), o, nil)
				}
				continue
			}
			if !lowering.HasTilingCheck(p.Version) || s.MemorySpace != "" || len(s.Block) < 2 {
				continue
			}
			n := len(s.Block)
			ok0, known0 := tileFits(s.Block[n-1], sa.shape[n-1], 128)
			ok1, known1 := tileFits(s.Block[n-2], sa.shape[n-2], 8)
			if !known0 || !known1 || (ok0 && ok1) {
				continue
			}
			loc := s.BlockLoc
			if loc.File == "" {
				loc = s.Loc
			}
			r.report(loc, 0, fmt.Sprintf("block shape %s of %s is not tiled for TPU: the last two dimensions must be multiples of (8, 128) or equal the array's %s",
				shapeText(s.Block), sa.what, lowering.PyTuple(sa.shape[n-2:])), lowering.BlockTilingOutcome(p.Version), nil)
		}
	}
}

// tileFits: a block dimension passes when it equals the array's or is a
// multiple of the tile; squeezed counts as 1.
func tileFits(d analysis.BlockDim, array, tile int) (ok, known bool) {
	size := d.Size
	switch {
	case d.Squeezed:
		size = 1
	case !d.Known:
		return false, false
	}
	return size == array || size%tile == 0, true
}

// windowDim returns a dimension where the block is known to differ from
// the array (squeezed counts as 1), -1 when none is.
func windowDim(block []analysis.BlockDim, array []int) int {
	for i, d := range block {
		size := d.Size
		switch {
		case d.Squeezed:
			size = 1
		case !d.Known:
			continue
		}
		if size != array[i] {
			return i
		}
	}
	return -1
}
