package rules

import "github.com/pallas-ls/pallas-ls/analysis"

// PAL901 and PAL902 are computed by the engine while it applies
// suppressions (only it knows which findings a comment silenced); these
// entries carry their codes, severities and documentation.
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
	Run: func(*analysis.Pass) {},
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
	Run: func(*analysis.Pass) {},
}

func init() {
	analysis.Register(PAL901)
	analysis.Register(PAL902)
}
