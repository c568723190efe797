package lsp

import (
	"bytes"
	"context"
	"regexp"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

// CodeAction offers, for the diagnostics under the range, each rule fix as
// a quickfix and an "Ignore PALxxx for this line" action, and for the whole
// file the safe fixes as source.fixAll.pallas-ls. It answers from the check
// that covers every edit received before the request.
func (s *server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	res, src, err := s.currentSource(ctx, p.TextDocument.URI)
	if src == nil {
		return nil, err
	}
	utf8 := s.capsSnapshot().utf8
	span := toSpan(src.mapper(), p.Range, utf8)
	var actions []protocol.CommandOrCodeAction
	if wants(p.Context.Only, protocol.CodeActionKindQuickFix) {
		for _, d := range underRange(res.diags[src.path], span, p.Context.Diagnostics) {
			actions = append(actions, s.quickFixes(res, d, utf8)...)
			actions = append(actions, ignoreAction(res, src, d, utf8))
		}
	}
	if wants(p.Context.Only, fixAllKind) {
		if a := s.fixAll(res, src.path, utf8); a != nil {
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// wants applies the client's kind filter; kinds are hierarchical, so
// "source" admits "source.fixAll.pallas-ls".
func wants(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}

// underRange picks the engine diagnostics that touch span (a cursor is an
// empty span) or that the client names in the request context.
func underRange(diags []analysis.Diagnostic, span pyparse.Span, named []protocol.Diagnostic) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, d := range diags {
		touches := d.Span.Start <= span.End && span.Start <= d.Span.End
		if touches || isNamed(d, named) {
			out = append(out, d)
		}
	}
	return out
}

func isNamed(d analysis.Diagnostic, named []protocol.Diagnostic) bool {
	for _, pd := range named {
		if dd, ok := fromDiagnostic(pd); ok && dd.Code == d.Code && dd.Start == d.Span.Start && dd.End == d.Span.End {
			return true
		}
	}
	return false
}

// quickFixes converts a diagnostic's fixes; the single safe one, if there
// is exactly one, is preferred so that editors can apply it on a shortcut.
func (s *server) quickFixes(res *results, d analysis.Diagnostic, utf8 bool) []protocol.CommandOrCodeAction {
	fixes := s.validFixes(res, d)
	safe := 0
	for _, f := range fixes {
		if f.Applicability == analysis.Safe {
			safe++
		}
	}
	pd := toDiagnostic(d, res.mapper, utf8)
	var out []protocol.CommandOrCodeAction
	for _, f := range fixes {
		a := &protocol.CodeAction{
			Title:       f.Title,
			Kind:        ptr(protocol.CodeActionKindQuickFix),
			Diagnostics: []protocol.Diagnostic{pd},
			Edit:        toWorkspaceEdit(f.Edits, res.mapper, utf8),
		}
		if safe == 1 && f.Applicability == analysis.Safe {
			a.IsPreferred = ptr(true)
		}
		out = append(out, a)
	}
	return out
}

// validFixes drops fixes that would corrupt a file (an analyzer bug, which
// is logged) so the editor is never offered one.
func (s *server) validFixes(res *results, d analysis.Diagnostic) []analysis.SuggestedFix {
	var out []analysis.SuggestedFix
	for _, f := range d.Fixes {
		srcs := map[string][]byte{}
		for _, e := range f.Edits {
			if src, ok := res.snap.files[e.File]; ok {
				srcs[e.File] = src.text
			}
		}
		if err := analysis.ValidateFix(f, srcs); err != nil {
			s.log.errorf("internal error: %s fix dropped: %v", d.Code, err)
			continue
		}
		out = append(out, f)
	}
	return out
}

func ignoreAction(res *results, src *source, d analysis.Diagnostic, utf8 bool) protocol.CommandOrCodeAction {
	edit := ignoreEdit(src, diagnosticLine(src.mapper(), d), d.Code)
	return &protocol.CodeAction{
		Title:       "Ignore " + d.Code + " for this line",
		Kind:        ptr(protocol.CodeActionKindQuickFix),
		Diagnostics: []protocol.Diagnostic{toDiagnostic(d, res.mapper, utf8)},
		Edit:        toWorkspaceEdit([]analysis.TextEdit{edit}, res.mapper, utf8),
	}
}

// fixAll merges the file's safe fixes the way `check --fix` does: one fix
// per diagnostic, and a fix that clashes with an earlier one left out
// whole, so the result always parses; running it again picks up the rest.
func (s *server) fixAll(res *results, path string, utf8 bool) protocol.CommandOrCodeAction {
	var diags []analysis.Diagnostic
	for _, d := range res.diags[path] {
		d.Fixes = s.validFixes(res, d)
		diags = append(diags, d)
	}
	plan := analysis.PlanFixes(diags, false)
	if len(plan.Applied) == 0 {
		return nil
	}
	var edits []analysis.TextEdit
	for _, list := range plan.Edits {
		edits = append(edits, list...)
	}
	return &protocol.CodeAction{
		Title: "pallas-ls: apply all safe fixes",
		Kind:  ptr(fixAllKind),
		Edit:  toWorkspaceEdit(edits, res.mapper, utf8),
	}
}

// ignoreComment finds an existing suppression comment so that a second
// code joins it instead of stacking a second comment on the line.
var ignoreComment = regexp.MustCompile(`#\s*pallas-ls:\s*ignore\[([^\]]*)\]`)

// ignoreEdit returns the edit behind "Ignore CODE for this line" for the
// 0-based line of a diagnostic (spec.md §6):
//
//   - a line that already has "# pallas-ls: ignore[...]" gets CODE added to
//     the list (a reason after it stays where it is);
//   - a line continued with a backslash cannot take a trailing comment, so
//     the comment goes alone on a new line above, at the same indentation;
//   - otherwise "  # pallas-ls: ignore[CODE]" is appended, after any comment
//     already there, so the user's own comment is kept.
func ignoreEdit(src *source, line int, code string) analysis.TextEdit {
	m := src.mapper()
	start, end := m.LineStart(line), m.LineEnd(line)
	content := src.text[start:end]
	if loc := ignoreComment.FindSubmatchIndex(content); loc != nil {
		codes := strings.TrimSpace(string(content[loc[2]:loc[3]]))
		insert := code
		if codes != "" {
			insert = ", " + code
		}
		at := start + loc[2] + len(strings.TrimRight(string(content[loc[2]:loc[3]]), " \t"))
		return newEdit(src.path, at, at, insert)
	}
	body := bytes.TrimRight(content, " \t")
	if bytes.HasSuffix(body, []byte(`\`)) {
		indent := content[:len(content)-len(bytes.TrimLeft(content, " \t"))]
		return newEdit(src.path, start, start, string(indent)+"# pallas-ls: ignore["+code+"]"+lineEnding(src.text, end))
	}
	return newEdit(src.path, start+len(body), end, "  # pallas-ls: ignore["+code+"]")
}

// lineEnding returns the terminator of the line ending at end, so that an
// inserted line matches the file's style ("\n" at the end of the file).
func lineEnding(text []byte, end int) string {
	switch {
	case bytes.HasPrefix(text[end:], []byte("\r\n")):
		return "\r\n"
	case bytes.HasPrefix(text[end:], []byte("\r")):
		return "\r"
	}
	return "\n"
}

func newEdit(path string, start, end int, text string) analysis.TextEdit {
	return analysis.TextEdit{Location: analysis.Location{File: path, Span: pyparse.Span{Start: start, End: end}}, NewText: text}
}

// diagnosticLine is the 0-based line a diagnostic starts on.
func diagnosticLine(m *pyparse.Mapper, d analysis.Diagnostic) int {
	return m.Line(d.Span.Start)
}
