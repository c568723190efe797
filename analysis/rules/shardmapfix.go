package rules

import (
	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// oldShardMapParams are the positional parameters of
// jax.experimental.shard_map.shard_map after f; jax.shard_map takes them
// as keywords only.
var oldShardMapParams = []string{"mesh", "in_specs", "out_specs", "check_rep", "auto"}

// shardMapFix rewrites a direct call of the deprecated
// jax.experimental.shard_map.shard_map to jax.shard_map with its
// keyword-only signature (check_rep= becomes check_vma=). It offers
// nothing when the call uses auto= (its meaning inverts into axis_names=)
// or when the reference is not the callee of a call.
func shardMapFix(p *analysis.Pass, s *ir.Summary, ref ir.APIRef) (analysis.SuggestedFix, bool) {
	call := ref.Call
	if call == nil || len(call.Args) > len(oldShardMapParams)+1 {
		return analysis.SuggestedFix{}, false
	}
	for _, kw := range call.Kw() {
		if kw.Name == "auto" || kw.Name == "" {
			return analysis.SuggestedFix{}, false
		}
	}
	for _, a := range call.Args {
		if a.Kind == ir.ExStarred {
			return analysis.SuggestedFix{}, false
		}
	}
	jaxName, imp, ok := analysis.EnsureModuleAlias(s, "jax", "jax")
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	edits := []analysis.TextEdit{analysis.Edit(s, ref.Span, jaxName+".shard_map")}
	for i, a := range call.Args {
		if i == 0 {
			continue
		}
		name := oldShardMapParams[i-1]
		if name == "auto" {
			return analysis.SuggestedFix{}, false
		}
		if name == "check_rep" {
			name = "check_vma"
		}
		edits = append(edits, analysis.Edit(s, pp.Span{Start: a.Span.Start, End: a.Span.Start}, name+"="))
	}
	for _, kw := range call.Kw() {
		if kw.Name == "check_rep" {
			edits = append(edits, analysis.Edit(s, kw.NameSpan, "check_vma"))
		}
	}
	if imp != nil {
		edits = append(edits, *imp)
	}
	return analysis.SuggestedFix{Title: "Use jax.shard_map (keyword-only mesh, in_specs, out_specs; check_vma)",
		Applicability: analysis.Safe, Edits: edits}, true
}

// keywordFix renames a keyword. check_rep= on the old shard_map is only
// renamed together with the callee (the same edits as shardMapFix, which
// fix application de-duplicates); keywords whose meaning changed
// (auto= -> axis_names=, vma= -> manual_axis_type=) get no automatic fix.
func keywordFix(p *analysis.Pass, s *ir.Summary, ref ir.APIRef, kc lowering.KeywordChange) (analysis.SuggestedFix, bool) {
	if kc.Callee == "jax.experimental.shard_map.shard_map" {
		if ref.Call == nil || kc.Keyword != "check_rep" {
			return analysis.SuggestedFix{}, false
		}
		callee := ir.APIRef{Kind: ir.RefExpr, Qual: kc.Callee, Span: ref.Call.X.Span, Call: ref.Call}
		return shardMapFix(p, s, callee)
	}
	switch kc.ReplacedBy {
	case "", "axis_names", "manual_axis_type", "compiler_params":
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{
		Title:         "Rename `" + kc.Keyword + "=` to `" + kc.ReplacedBy + "=`",
		Applicability: analysis.Safe,
		Edits:         []analysis.TextEdit{analysis.Edit(s, ref.Span, kc.ReplacedBy)},
	}, true
}
