package analysis

import (
	"fmt"
	"strings"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// applySuppressions drops silenced findings and adds PAL901 (a suppression
// that silenced nothing) and PAL902 (a suppression naming no known rule).
func applySuppressions(prog *Program, diags []Diagnostic, opts *Options, parse func(*Summary) []*Suppression) ([]Diagnostic, int) {
	byFile := map[string][]*Suppression{}
	var all []*Suppression
	for _, s := range prog.Files {
		sps := parse(s)
		byFile[s.Path] = sps
		all = append(all, sps...)
	}
	files := map[string]*Summary{}
	for _, s := range prog.Files {
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
	for _, sp := range all {
		out = append(out, suppressionFindings(sp, files[sp.File], opts)...)
	}
	return out, n
}

func suppressionFindings(sp *Suppression, s *Summary, opts *Options) []Diagnostic {
	var out []Diagnostic
	for _, c := range sp.Codes {
		known := false
		for _, a := range Analyzers() {
			known = known || matchCode(c, a.Code)
		}
		switch {
		case !known:
			if d, ok := newFinding("PAL902", s, sp, fmt.Sprintf("`%s` names no pallas-ls rule (see `pallas-ls rules`)", c), opts); ok {
				out = append(out, d)
			}
		case !sp.used[c] && anyEnabled(c, opts):
			if d, ok := newFinding("PAL901", s, sp, fmt.Sprintf("unused suppression: no %s finding here", c), opts); ok {
				d.Fixes = []SuggestedFix{removeSuppression(s, sp, c)}
				out = append(out, d)
			}
		}
	}
	return out
}

func anyEnabled(pattern string, opts *Options) bool {
	for _, a := range Analyzers() {
		if matchCode(pattern, a.Code) && enabled(a.Code, opts) && a.Code != "PAL901" && a.Code != "PAL902" {
			return true
		}
	}
	return false
}

func newFinding(code string, s *Summary, sp *Suppression, msg string, opts *Options) (Diagnostic, bool) {
	a, ok := LookupAnalyzer(code)
	if !ok || !enabled(code, opts) || s == nil {
		return Diagnostic{}, false
	}
	return Diagnostic{Code: a.Code, Name: a.Name, Severity: a.Severity, Location: s.location(sp.Span), Message: msg}, true
}

// removeSuppression deletes one code from the suppression, or the
// suppression itself when it was the only code: the rest of the comment
// stays, and a comment left empty goes with its line or its spaces.
func removeSuppression(s *Summary, sp *Suppression, code string) SuggestedFix {
	fix := SuggestedFix{Title: "Remove unused suppression", Applicability: Safe}
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
			fix.Applicability = DisplayOnly
			return fix
		}
		fix.Edits = []TextEdit{s.Edit(spanOf(sp.Match.Start+open+1, sp.Match.Start+close), strings.Join(rest, ", "))}
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
	fix.Edits = []TextEdit{s.Edit(spanOf(start, end), "")}
	return fix
}

func spanOf(start, end int) pp.Span { return pp.Span{Start: start, End: end} }
