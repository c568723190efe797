package cli

import (
	"cmp"
	"slices"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// Report is everything an output format needs; the formatters are pure
// functions of it (spec.md §2), so every format shows the same findings and
// golden tests need no file system.
type Report struct {
	ToolVersion  string
	JAXVersion   string // "0.11"
	FilesChecked int
	// Diagnostics arrive sorted by file, line, column, code.
	Diagnostics []analysis.Diagnostic
	// Display turns an absolute path into the path printed: relative to the
	// working directory when under it, else absolute. Nil prints paths as given.
	Display func(absPath string) string
	// Rules describe the codes for SARIF; only those used are written.
	Rules []RuleInfo
	// WorkDir is the absolute working directory. SARIF states it as the
	// base (%SRCROOT%) its relative URIs resolve against; when empty,
	// WriteSARIF asks the operating system.
	WorkDir string
}

// RuleInfo is the part of a rule's documentation SARIF viewers show.
type RuleInfo struct {
	Code, Name, Title, Description, HelpURI string
	DefaultSeverity                         analysis.Severity
}

// path returns the printed form of an absolute path.
func (r Report) path(abs string) string {
	if r.Display == nil {
		return abs
	}
	return r.Display(abs)
}

// summaryCounts tallies diagnostics for the summary line. Hints count as
// info: both are advice, not problems a build should fail on by default.
type summaryCounts struct {
	errors, warnings, infos int
}

func countForSummary(diags []analysis.Diagnostic) summaryCounts {
	var c summaryCounts
	for _, d := range diags {
		switch d.Severity {
		case analysis.SeverityError:
			c.errors++
		case analysis.SeverityWarning:
			c.warnings++
		default:
			c.infos++
		}
	}
	return c
}

// sarifUsedRules returns one RuleInfo per code that occurs in the report,
// sorted by code, and each code's index in that list. A code with no
// RuleInfo (a rule whose docs the caller did not pass) still gets a minimal
// entry, because SARIF consumers reject a result whose rule is missing.
func sarifUsedRules(r Report) ([]RuleInfo, map[string]int) {
	known := make(map[string]RuleInfo, len(r.Rules))
	for _, ri := range r.Rules {
		known[ri.Code] = ri
	}
	index := make(map[string]int)
	var rules []RuleInfo
	for _, d := range r.Diagnostics {
		if _, ok := index[d.Code]; ok {
			continue
		}
		index[d.Code] = 0
		ri, ok := known[d.Code]
		if !ok {
			ri = RuleInfo{Code: d.Code, Name: d.Name, Title: d.Code, DefaultSeverity: d.Severity}
		}
		rules = append(rules, ri)
	}
	slices.SortFunc(rules, func(a, b RuleInfo) int { return cmp.Compare(a.Code, b.Code) })
	for i, ri := range rules {
		index[ri.Code] = i
	}
	return rules, index
}

// fixFileOrder lists the files of a fix's edits in first-use order, so output
// grouping by file is deterministic without re-sorting the rule's edits.
func fixFileOrder(edits []analysis.TextEdit) []string {
	var files []string
	for _, e := range edits {
		if !slices.Contains(files, e.File) {
			files = append(files, e.File)
		}
	}
	return files
}
