package analysis_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

func okRule(code, name string) *analysis.Analyzer {
	return &analysis.Analyzer{Code: code, Name: name, Severity: analysis.SeverityWarning, Run: func(*analysis.Pass) {},
		Doc: analysis.Doc{Title: "A rule", What: "w", Why: "w", Example: "e", Fixed: "f", Since: "0.1.0"}}
}

// TestValidateRejects: each kind of mistake Validate exists for.
func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct {
		want string
		edit func(a *analysis.Analyzer)
	}{
		{"three digits", func(a *analysis.Analyzer) { a.Code = "PAL12" }},
		{"kebab-case", func(a *analysis.Analyzer) { a.Name = "Bad_Name" }},
		{"severity", func(a *analysis.Analyzer) { a.Severity = 0 }},
		{"run functions", func(a *analysis.Analyzer) { a.RunFile = func(*analysis.Pass, *ir.Summary) {} }},
		{"run functions", func(a *analysis.Analyzer) { a.Run = nil }},
		{"per file", func(a *analysis.Analyzer) { a.Triggers = [][]string{{"x"}} }},
		{"empty trigger", func(a *analysis.Analyzer) {
			a.Run, a.RunFile, a.Triggers = nil, func(*analysis.Pass, *ir.Summary) {}, [][]string{{"x", ""}}
		}},
		{"documentation", func(a *analysis.Analyzer) { a.Doc.Fixed = "" }},
		{"period", func(a *analysis.Analyzer) { a.Doc.Title = "A rule." }},
		{"capital", func(a *analysis.Analyzer) { a.Doc.Title = "a rule" }},
	} {
		a := okRule("PAL199", "a-rule")
		tc.edit(a)
		if err := analysis.Validate([]*analysis.Analyzer{a}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error about %q, got %v", tc.want, err)
		}
	}
	if err := analysis.Validate([]*analysis.Analyzer{okRule("PAL198", "a"), okRule("PAL198", "b")}); err == nil {
		t.Error("a code used twice passed")
	}
	if err := analysis.Validate([]*analysis.Analyzer{okRule("PAL197", "a"), okRule("PAL198", "a")}); err == nil {
		t.Error("a name used twice passed")
	}
	if err := analysis.Validate([]*analysis.Analyzer{okRule("PAL197", "a"), okRule("PAL198", "b")}); err != nil {
		t.Error(err)
	}
}

// TestRulePanicIsThatRulesError: a rule that panics loses its own
// findings, in the file where it panicked for a per-file rule, and a note
// names it; the run and the other rules' findings stand.
func TestRulePanicIsThatRulesError(t *testing.T) {
	files := []analysis.SourceFile{
		{Path: "/p/a.py", Src: []byte("x = 1\n")},
		{Path: "/p/b.py", Src: []byte("y = 2  # pallas-ls: ignore[PAL197]\n")},
	}
	perFile := func(code, name string, panicIn string) *analysis.Analyzer {
		a := okRule(code, name)
		a.Run, a.RunFile = nil, func(p *analysis.Pass, s *ir.Summary) {
			if strings.HasSuffix(s.Path, panicIn) {
				panic("boom in " + code)
			}
			p.Report(analysis.Diagnostic{Location: analysis.Locate(s, s.Body[0].Span), Message: "seen"})
		}
		return a
	}
	whole := okRule("PAL195", "whole")
	whole.Run = func(*analysis.Pass) { panic("boom in PAL195") }
	set := []*analysis.Analyzer{perFile("PAL196", "fine", "none"), perFile("PAL197", "flaky", "a.py"), whole}
	res, err := analysis.Check(context.Background(), files, analysis.Options{JAXVersion: lowering.Latest, Analyzers: set})
	if err != nil {
		t.Fatalf("a rule's panic failed the run: %v", err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Code+" "+d.File)
	}
	// PAL196 in both files; PAL197 only in b.py, where it is suppressed.
	if strings.Join(got, ", ") != "PAL196 /p/a.py, PAL196 /p/b.py" || res.Suppressed != 1 {
		t.Errorf("findings %v, %d suppressed", got, res.Suppressed)
	}
	var notes []string
	for _, n := range res.Notes {
		notes = append(notes, n.File+": "+n.Message)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"/p/a.py: internal error in rule PAL197 (flaky)", "boom in PAL197", "internal error in rule PAL195 (whole)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	if res.Incomplete == "" {
		t.Error("a failed rule leaves the result complete")
	}
}

// TestCustomRuleSet: the rules are whatever the options carry, PAL901
// and PAL902 included: with an empty set nothing is reported, and a
// suppression naming a rule of the set is known.
func TestCustomRuleSet(t *testing.T) {
	files := []analysis.SourceFile{{Path: "/p/a.py", Src: []byte("x = 1  # pallas-ls: ignore[PAL101]\n")}}
	res, err := analysis.Check(context.Background(), files, analysis.Options{JAXVersion: lowering.Latest})
	if err != nil || len(res.Diagnostics) != 0 {
		t.Fatalf("no rules: %v, %v", res.Diagnostics, err)
	}
	full, _ := analysis.Check(context.Background(), files, withRules(analysis.Options{JAXVersion: lowering.Latest}))
	if len(full.Diagnostics) != 1 || full.Diagnostics[0].Code != "PAL901" {
		t.Fatalf("pallas-ls's rules: %v", full.Diagnostics)
	}
	var only902 []*analysis.Analyzer
	for _, a := range withRules(analysis.Options{}).Analyzers {
		if a.Code == "PAL902" {
			only902 = append(only902, a) // PAL101 unknown: reported as unknown
		}
	}
	res, _ = analysis.Check(context.Background(), files, analysis.Options{JAXVersion: lowering.Latest, Analyzers: only902})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "PAL902" {
		t.Fatalf("a set without PAL101: %v", res.Diagnostics)
	}
}
