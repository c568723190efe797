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
			"dimensions (`None`, `pl.Squeezed()`) count as 1. A rank-1 block must equal the array or be a multiple " +
			"of the tiling size 128 * (32 // bits of the dtype) (256 for bfloat16; bool counts as 32 bits); from JAX " +
			"0.9.2 it must equal the array, be a multiple of 1024 (2048 with `tpu-chip = \"8t\"`), or be a power of 2 " +
			"at least the tiling size, so it is judged only where the array's dtype is known (`jnp.ones((n,), " +
			"jnp.bfloat16)`, `jax.ShapeDtypeStruct(shape, x.dtype)`). A block in memory space ANY must be the whole " +
			"array; so must one in HBM (`pltpu.HBM`, from JAX 0.7.2). Blocks in another explicit memory space (SMEM, " +
			"VMEM) and interpret mode are not judged.",
		Why: "Since JAX 0.4.31 the Pallas TPU lowering raises \"The Pallas TPU lowering currently requires that " +
			"the last two dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to " +
			"the respective dimensions of the overall array.\" (for rank-1 blocks too up to 0.4.34; from 0.4.35 " +
			"\"The Pallas TPU lowering currently requires that rank 1 block shapes, either 1) ...\"); before, Mosaic's " +
			"compiler failed later with a layout error.",
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
	chip, _ := lowering.ParseChip(p.Options.TPUChip)
	eachConfig(p, func(kc *analysis.KernelCall, r *configReporter) {
		if !isTPU(kc) || kc.Config.Interpret {
			return
		}

		for _, sa := range specArrays(kc.Config) {
			s := sa.spec
			if !s.BlockSpec || !s.BlockKnown || sa.shape == nil || len(s.Block) != len(sa.shape) {
				continue
			}
			if s.MemorySpace == "HBM" && p.Version.Less(lowering.HBMWindowSince) {
				continue
			}
			if s.MemorySpace == "ANY" || s.MemorySpace == "HBM" {
				if o := lowering.AnyWindowOutcome(p.Version); o.Fails && windowDim(s.Block, sa.shape) >= 0 {
					r.report(firstLoc(s.BlockLoc, s.Loc), 0, fmt.Sprintf("block shape %s of %s in memory space %s is not the whole array %s",
						shapeText(s.Block), sa.what(), s.MemorySpace, lowering.PyTuple(sa.shape)), o, nil)
				}
				continue
			}
			if !lowering.HasTilingCheck(p.Version) || s.MemorySpace != "" {
				continue
			}
			if len(s.Block) == 1 {
				rank1(r, p, s, sa, chip)
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
				shapeText(s.Block), sa.what(), lowering.PyTuple(sa.shape[n-2:])), lowering.BlockTilingOutcome(p.Version), nil)
		}
	})
}

// rank1 judges a rank-1 block: its size against the array's and the
// tiling of the array's dtype (unknown dtype, squeezed or unknown size:
// silent).
func rank1(r *configReporter, p *analysis.Pass, s analysis.SpecFact, sa specArray, chip string) {
	d := s.Block[0]
	if !d.Known || d.Squeezed {
		return
	}
	o, ok := lowering.Rank1BlockOutcome(p.Version, chip, d.Size, sa.shape[0], sa.dtype)
	if !ok || !o.Fails {
		return
	}
	r.report(firstLoc(s.BlockLoc, s.Loc), 0, fmt.Sprintf("rank-1 block shape %s of %s (%s) is not tiled for TPU: it must equal the array's %d or be a multiple of the tiling size",
		shapeText(s.Block), sa.what(), sa.dtype, sa.shape[0]), o, nil)
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
