package rules

import (
	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL216 reports pl.BlockSpec(index_map, block_shape), the argument order
// of JAX 0.4.30 and before.
var PAL216 = &analysis.Analyzer{
	Code: "PAL216", Name: "blockspec-argument-order", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "BlockSpec arguments in the pre-0.4.31 order",
		What: "`pl.BlockSpec(index_map, block_shape)`: the first positional argument is a function (a lambda " +
			"or a name, not a call's result). Since JAX 0.4.31 BlockSpec takes `block_shape` first; 0.4.31-0.4.33 " +
			"accept the old order with a DeprecationWarning (reported as info), later versions do not. With JAX " +
			"0.4.30 and before, the reverse: `pl.BlockSpec(block_shape, index_map)` is reported.",
		Why: "From 0.4.34 the function is taken as the block shape and tracing fails with an unrelated " +
			"TypeError (\"'function' object is not iterable\", \"object of type 'function' has no len()\").",
		Example:   "spec = pl.BlockSpec(lambda i: (i, 0), (128, 512))",
		Fixed:     "spec = pl.BlockSpec((128, 512), lambda i: (i, 0))",
		FixSafety: "Swapping the two positional arguments keeps their meaning; safe.",
		Since:     "0.2.0",
		Scaffold: `import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


` + analysis.SnippetLine + `
x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(add_one, out_shape=x, grid=(2,), in_specs=[spec], out_specs=spec)(x)
`,
	},
	Run: runPAL216,
}

func runPAL216(p *analysis.Pass) {
	deprecated, o := lowering.BlockSpecOrder(p.Version)
	if !deprecated {
		runPAL216NewOrder(p)
		return
	}
	var sev analysis.Severity
	msg := "BlockSpec(index_map, block_shape) is the argument order of JAX 0.4.30 and before; BlockSpec takes block_shape first"
	if !o.Fails {
		sev = analysis.SeverityInfo
		msg += " (deprecated in " + version(p) + ", an error from 0.4.34)"
	}
	eachConfig(p, func(kc *analysis.KernelCall, r *configReporter) {
		for _, s := range allSpecs(kc.Config) {
			if !s.OldOrder {
				continue
			}
			var fixes []analysis.SuggestedFix
			if fix, ok := swapFix(s.File, s.Call, "Swap to BlockSpec(block_shape, index_map)"); ok {
				fixes = append(fixes, fix)
			}
			r.report(s.Loc, sev, msg, o, fixes)
		}
	})
}

// runPAL216NewOrder reports, for JAX 0.4.30 and before, BlockSpecs
// written in the order of later versions.
func runPAL216NewOrder(p *analysis.Pass) {
	o := lowering.BlockSpecNewOrderOutcome(p.Version)
	if !o.Fails {
		return
	}
	eachConfig(p, func(kc *analysis.KernelCall, r *configReporter) {
		for _, s := range allSpecs(kc.Config) {
			if !s.NewOrder {
				continue
			}
			var fixes []analysis.SuggestedFix
			if fix, ok := swapFix(s.File, s.Call, "Swap to BlockSpec(index_map, block_shape)"); ok {
				fixes = append(fixes, fix)
			}
			r.report(s.Loc, 0, "BlockSpec(block_shape, index_map) is the argument order since JAX 0.4.31; "+version(p)+" takes index_map first", o, fixes)
		}
	})
}

// swapFix swaps the first two positional arguments of call.
func swapFix(file *ir.Summary, call *ir.Expr, title string) (analysis.SuggestedFix, bool) {
	if file == nil || call == nil || len(call.Args) < 2 {
		return analysis.SuggestedFix{}, false
	}
	a, b := call.Args[0], call.Args[1]
	if a.Kind == ir.ExStarred || b.Kind == ir.ExStarred {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{
		Title:         title,
		Applicability: analysis.Safe,
		Edits: []analysis.TextEdit{
			analysis.Edit(file, a.Span, file.Text(b.Span)),
			analysis.Edit(file, b.Span, file.Text(a.Span)),
		},
	}, true
}
