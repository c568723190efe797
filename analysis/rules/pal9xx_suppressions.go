package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// PAL901 and PAL902 read the suppression comments after the engine has
// matched the other rules' findings against them (only it knows which
// findings a comment silenced): Analyzer.RunSuppressions.

// PAL901 reports suppressions that silence nothing.
var PAL901 = &analysis.Analyzer{
	Code: "PAL901", Name: "unused-suppression", Severity: analysis.SeverityWarning,
	Doc: analysis.Doc{
		Title:     "Suppression comment that suppresses nothing",
		What:      "A `# pallas-ls: ignore[CODE]` (or `# noqa: CODE`) comment where no CODE finding exists.",
		Why:       "Stale suppressions hide future findings on that line and mislead readers.",
		Example:   "x = 1  # pallas-ls: ignore[PAL101]",
		Fixed:     "x = 1",
		FixSafety: "Safe: removes the code (or the whole comment when it was the only code).",
		Since:     "0.1.0",
	},
	RunSuppressions: runPAL901,
}

// PAL902 reports suppressions naming no known rule.
var PAL902 = &analysis.Analyzer{
	Code: "PAL902", Name: "unknown-code", Severity: analysis.SeverityWarning,
	Doc: analysis.Doc{
		Title:   "Suppression or configuration naming no known rule",
		What:    "A suppression comment or a select/ignore/severity entry names a code that matches no pallas-ls rule.",
		Why:     "A typo in a code silently suppresses or selects nothing.",
		Example: "ring(x)  # pallas-ls: ignore[PAL1O1]",
		Fixed:   "ring(x)  # pallas-ls: ignore[PAL101]",
		Since:   "0.1.0",
	},
	RunSuppressions: runPAL902,
}

func runPAL901(p *analysis.Pass, s *ir.Summary, sups []*analysis.Suppression) {
	for _, sp := range sups {
		for _, c := range sp.Codes {
			if known(p, c) && !sp.Used(c) && checked(p, c) {
				p.Report(analysis.Diagnostic{Location: analysis.Locate(s, sp.Span),
					Message: fmt.Sprintf("unused suppression: no %s finding here", c),
					Fixes:   []analysis.SuggestedFix{removeSuppression(s, sp, c)}})
			}
		}
	}
}

func runPAL902(p *analysis.Pass, s *ir.Summary, sups []*analysis.Suppression) {
	for _, sp := range sups {
		for _, c := range sp.Codes {
			if !known(p, c) {
				p.Report(analysis.Diagnostic{Location: analysis.Locate(s, sp.Span),
					Message: fmt.Sprintf("`%s` names no pallas-ls rule (see `pallas-ls rules`)", c)})
			}
		}
	}
}

// known reports whether the code pattern matches a rule of the run's set.
func known(p *analysis.Pass, pattern string) bool {
	for _, a := range p.Analyzers {
		if analysis.MatchCode(pattern, a.Code) {
			return true
		}
	}
	return false
}

// checked reports whether the pattern matches a rule that ran and could
// have reported what the suppression silences: enabled, and not about
// suppressions itself.
func checked(p *analysis.Pass, pattern string) bool {
	for _, a := range p.Analyzers {
		if analysis.MatchCode(pattern, a.Code) && p.Enabled(a.Code) && a.RunSuppressions == nil {
			return true
		}
	}
	return false
}
