package rules

import (
	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL302 reports deprecated names and keywords.
var PAL302 = &analysis.Analyzer{
	Code: "PAL302", Name: "deprecated-api", Severity: analysis.SeverityWarning,
	Doc: analysis.Doc{
		Title: "JAX or Pallas API deprecated in the configured JAX version",
		What: "An attribute, import or keyword argument that still works in the configured JAX version but is " +
			"deprecated, e.g. `jax.experimental.shard_map.shard_map` and its `check_rep=` on 0.8 and later.",
		Why:       "It will be removed in a later JAX release; upgrading JAX then breaks the code.",
		Example:   "from jax.experimental.shard_map import shard_map\nshard_map(f, mesh, P(\"x\"), P(\"x\"), check_rep=False)",
		Fixed:     "import jax\njax.shard_map(f, mesh=mesh, in_specs=P(\"x\"), out_specs=P(\"x\"), check_vma=False)",
		FixSafety: "Safe: the replacement is the same API under its new name and signature.",
		Since:     "0.1.0",
	},
	RunFile:  func(p *analysis.Pass, s *ir.Summary) { apiHistory(p, s, lowering.StatusDeprecated) },
	Triggers: historyTriggers,
}
