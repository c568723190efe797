package analysis

import (
	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// applySuppressions drops the findings a suppression comment silences,
// marking the suppressions used; it returns the findings kept, how many
// were silenced, and each file's suppressions (by path), for the rules
// about suppressions (Analyzer.RunSuppressions: PAL901, PAL902).
func applySuppressions(prog *program, diags []Diagnostic, parse func(*ir.Summary) []*Suppression) ([]Diagnostic, int, map[string][]*Suppression) {
	byFile := map[string][]*Suppression{}
	files := map[string]*ir.Summary{}
	for _, s := range prog.Files {
		byFile[s.Path] = parse(s)
		files[s.Path] = s
	}
	var out []Diagnostic
	n := 0
	for _, d := range diags {
		line := -2
		if s := files[d.File]; s != nil {
			line = s.Mapper().Line(d.Span.Start)
		}
		hit := false
		for _, sp := range byFile[d.File] {
			if sp.suppresses(&d, line) {
				hit = true
			}
		}
		if hit {
			n++
			continue
		}
		out = append(out, d)
	}
	return out, n, byFile
}
