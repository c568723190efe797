package analysis

import (
	"regexp"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// Suppression is one `# pallas-ls: ignore[...]`, `ignore-file[...]` or
// `# noqa: ...` comment.
type Suppression struct {
	File string
	Span pp.Span // the comment
	// Match is the suppression's own text within the comment (a comment
	// may carry more, such as another tool's directive).
	Match    pp.Span
	Trailing bool
	Line     int // 0-based line it applies to (-1 for the whole file)
	Codes    []string
	Reason   string
	Noqa     bool
	used     map[string]bool
}

var (
	ignoreRe = regexp.MustCompile(`#\s*pallas-ls:\s*ignore(-file)?\[([^\]]*)\](?:\s*--\s*([^#]*))?`)
	noqaRe   = regexp.MustCompile(`(?i)#\s*noqa:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)`)
)

// suppressions parses the file's suppression comments.
func suppressions(s *ir.Summary) []*Suppression {
	var out []*Suppression
	m := s.Mapper()
	for _, c := range s.Comments {
		if !mentions(c.Text) {
			continue // most comments: no regular expression needed
		}
		line := m.Line(c.Span.Start)
		if !c.Trailing {
			line++ // alone on its line: applies to the next line
		}
		if idx := ignoreRe.FindStringSubmatchIndex(c.Text); idx != nil {
			mm := ignoreRe.FindStringSubmatch(c.Text)
			sp := &Suppression{File: s.Path, Span: c.Span, Line: line, Codes: splitCodes(mm[2]), Reason: strings.TrimSpace(mm[3]), used: map[string]bool{},
				Match: pp.Span{Start: c.Span.Start + idx[0], End: c.Span.Start + idx[1]}, Trailing: c.Trailing}
			if mm[1] != "" {
				sp.Line = -1
			}
			out = append(out, sp)
		} else if idx := noqaRe.FindStringSubmatchIndex(c.Text); idx != nil {
			mm := noqaRe.FindStringSubmatch(c.Text)
			var codes []string
			for _, code := range splitCodes(mm[1]) {
				if strings.HasPrefix(code, "PAL") {
					codes = append(codes, code)
				}
			}
			if len(codes) > 0 {
				out = append(out, &Suppression{File: s.Path, Span: c.Span, Line: m.Line(c.Span.Start), Codes: codes, Noqa: true, used: map[string]bool{},
					Match: pp.Span{Start: c.Span.Start + idx[0], End: c.Span.Start + idx[1]}, Trailing: true})
			}
		}
	}
	return out
}

func splitCodes(s string) []string {
	var out []string
	for _, c := range strings.Split(s, ",") {
		if c = strings.ToUpper(strings.TrimSpace(c)); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// Used reports whether the suppression silenced a finding with code
// (one of its Codes, as written) in this run.
func (sp *Suppression) Used(code string) bool { return sp.used[code] }

// suppresses reports whether sp silences d, and marks it used.
func (sp *Suppression) suppresses(d *Diagnostic, line int) bool {
	if sp.Line >= 0 && sp.Line != line {
		return false
	}
	for _, c := range sp.Codes {
		if MatchCode(c, d.Code) {
			sp.used[c] = true
			return true
		}
	}
	return false
}

// mentions reports whether a comment can match ignoreRe or noqaRe: it
// contains "pallas-ls:" or, in any case, "noqa".
func mentions(text string) bool {
	if strings.Contains(text, "pallas-ls:") {
		return true
	}
	for i := 0; i+4 <= len(text); i++ {
		if text[i]|0x20 == 'n' && strings.EqualFold(text[i:i+4], "noqa") {
			return true
		}
	}
	return false
}
