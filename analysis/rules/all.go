package rules

import "github.com/pallas-ls/pallas-ls/analysis"

// All returns pallas-ls's rules in code order, a fresh slice each call:
// the set the front ends hand to every check (analysis.Options.Analyzers)
// and list in `rules` and docs/rules.md. A new rule is added here.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{PAL101, PAL102, PAL103, PAL104, PAL105, PAL106, PAL107, PAL108, PAL201, PAL202, PAL203, PAL204, PAL205, PAL211, PAL212, PAL213, PAL214, PAL215, PAL216, PAL217, PAL301, PAL302, PAL901, PAL902}
}
