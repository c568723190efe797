package rules_test

import (
	"context"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestDocExamples runs each rule's documentation: its Example (in its
// Scaffold, when it is not a program by itself) must make the rule fire,
// with fixes whose titles pass ValidateFixTitle, and its Fixed form must
// not, at the JAX version pallas-ls predicts for by default.
func TestDocExamples(t *testing.T) {
	for _, a := range rules.All() {
		t.Run(a.Code, func(t *testing.T) {
			ex := docFindings(t, a, a.Doc.Example)
			if len(ex) == 0 {
				t.Errorf("the documented example does not fire (add what it assumes to Doc.Scaffold):\n%s", a.Doc.Program(a.Doc.Example))
			}
			for _, d := range ex {
				for _, f := range d.Fixes {
					if err := analysis.ValidateFixTitle(f.Title); err != nil {
						t.Error(err)
					}
				}
			}
			if fixed := docFindings(t, a, a.Doc.Fixed); len(fixed) > 0 {
				t.Errorf("the documented fixed form still fires: %s\n%s", fixed[0].Message, a.Doc.Program(a.Doc.Fixed))
			}
		})
	}
}

// docFindings checks the snippet's program and returns a's findings in it.
func docFindings(t *testing.T, a *analysis.Analyzer, snippet string) []analysis.Diagnostic {
	t.Helper()
	file := analysis.SourceFile{Path: "/doc/" + a.Code + ".py", Src: []byte(a.Doc.Program(snippet))}
	v := lowering.Latest
	if a.Doc.JAXVersion != "" {
		v = lowering.MustParse(a.Doc.JAXVersion)
	}
	res, err := analysis.Check(context.Background(), []analysis.SourceFile{file},
		analysis.Options{JAXVersion: v, Analyzers: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	var out []analysis.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == a.Code {
			out = append(out, d)
		}
	}
	return out
}
