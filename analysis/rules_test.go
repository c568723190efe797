package analysis_test

import (
	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// The engine's tests run pallas-ls's own rules; the internal ones get them
// from here (package rules imports this one, so they cannot import it).
func init() { analysis.UseRulesInInternalTests(rules.All()) }

// withRules returns opts with pallas-ls's rules.
func withRules(opts analysis.Options) analysis.Options {
	opts.Analyzers = rules.All()
	return opts
}
