package rules_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// FuzzCheck: the whole pipeline (parse, summary, link, interpretation,
// rules, suppression) on arbitrary bytes never panics, returns positions
// inside the file and only valid fixes, whichever JAX version applies.
func FuzzCheck(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/PAL*/*/*.py")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b, uint8(11))
		}
	}
	f.Add([]byte("def f(:\n  pl.pallas_call(k)(x)\n"), uint8(7))
	f.Fuzz(func(t *testing.T, src []byte, minor uint8) {
		opts := analysis.Options{JAXVersion: lowering.V(0, int(minor%12), 0), ShowInfo: true, Analyzers: rules.All()}
		file := analysis.SourceFile{Path: "/fuzz/main.py", Src: src}
		res, err := analysis.Check(context.Background(), []analysis.SourceFile{file}, opts)
		if err != nil {
			t.Fatal(err)
		}
		srcs := map[string][]byte{file.Path: src}
		for _, d := range res.Diagnostics {
			if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
				t.Fatalf("%s span %v outside %d bytes", d.Code, d.Span, len(src))
			}
			for _, fix := range d.Fixes {
				if err := analysis.ValidateFix(fix, srcs); err != nil {
					t.Fatalf("%s: invalid fix %q: %v", d.Code, fix.Title, err)
				}
			}
		}
		plan := analysis.PlanFixes(res.Diagnostics, true)
		if edits := plan.Edits[file.Path]; len(edits) > 0 {
			if _, err := analysis.ApplyEdits(src, edits); err != nil {
				t.Fatalf("planned fixes do not apply: %v", err)
			}
		}
	})
}
