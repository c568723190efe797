package rules

import (
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// removeSuppression deletes one code from the suppression, or the
// suppression itself when it was the only code: the rest of the comment
// stays, and a comment left empty goes with its line or its spaces.
func removeSuppression(s *ir.Summary, sp *analysis.Suppression, code string) analysis.SuggestedFix {
	fix := analysis.SuggestedFix{Title: "Remove unused suppression", Applicability: analysis.Safe}
	var rest []string
	for _, c := range sp.Codes {
		if c != code {
			rest = append(rest, c)
		}
	}
	text := s.Text(sp.Match)
	if len(rest) > 0 {
		open, close := strings.IndexByte(text, '['), strings.IndexByte(text, ']')
		if sp.Noqa || open < 0 || close < open {
			fix.Applicability = analysis.DisplayOnly
			return fix
		}
		fix.Edits = []analysis.TextEdit{analysis.Edit(s, pp.Span{Start: sp.Match.Start + open + 1, End: sp.Match.Start + close}, strings.Join(rest, ", "))}
		return fix
	}
	start, end := sp.Match.Start, sp.Match.End
	for end < sp.Span.End && (s.Src[end] == ' ' || s.Src[end] == '\t') {
		end++
	}
	if start == sp.Span.Start && end == sp.Span.End {
		// The comment is only the suppression.
		for start > 0 && (s.Src[start-1] == ' ' || s.Src[start-1] == '\t') {
			start--
		}
		if !sp.Trailing {
			m := s.Mapper()
			line := m.Line(sp.Span.Start)
			start, end = m.LineStart(line), m.LineStart(line+1)
		}
	}
	fix.Edits = []analysis.TextEdit{analysis.Edit(s, pp.Span{Start: start, End: end}, "")}
	return fix
}
