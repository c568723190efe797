package lsp

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

// This file is the one place where engine values (byte offsets, analysis
// diagnostics and edits) become protocol values and back. Everything else
// works in byte offsets.

// ruleDocBase is where each rule's documentation lives, one anchor per code.
const ruleDocBase = "https://github.com/pallas-ls/pallas-ls/blob/main/docs/rules.md#"

// mapperFor returns the Mapper of a file's content as the check saw it, or
// nil for a file outside the check.
type mapperFor func(path string) *pyparse.Mapper

func toPosition(m *pyparse.Mapper, off int, utf8 bool) protocol.Position {
	var line, char int
	if utf8 {
		line, char = m.UTF8(off)
	} else {
		line, char = m.UTF16(off)
	}
	return protocol.Position{Line: uint32(line), Character: uint32(char)}
}

func toOffset(m *pyparse.Mapper, p protocol.Position, utf8 bool) int {
	if utf8 {
		return m.OffsetUTF8(int(p.Line), int(p.Character))
	}
	return m.OffsetUTF16(int(p.Line), int(p.Character))
}

func toRange(m *pyparse.Mapper, s pyparse.Span, utf8 bool) protocol.Range {
	return protocol.Range{Start: toPosition(m, s.Start, utf8), End: toPosition(m, s.End, utf8)}
}

// toSpan converts a client range, clamped to the text and put in order.
func toSpan(m *pyparse.Mapper, r protocol.Range, utf8 bool) pyparse.Span {
	a, b := toOffset(m, r.Start, utf8), toOffset(m, r.End, utf8)
	if b < a {
		a, b = b, a
	}
	return pyparse.Span{Start: a, End: b}
}

// locRange converts an engine location. Without the file's content (a
// location outside the check) it falls back on the printed position, whose
// code-point columns equal UTF-16 columns for all but astral characters.
func locRange(loc analysis.Location, mappers mapperFor, utf8 bool) protocol.Range {
	if m := mappers(loc.File); m != nil {
		return toRange(m, loc.Span, utf8)
	}
	pos := func(line, col int) protocol.Position {
		return protocol.Position{Line: uint32(max(line-1, 0)), Character: uint32(max(col-1, 0))}
	}
	return protocol.Range{Start: pos(loc.Pos.Line, loc.Pos.Column), End: pos(loc.Pos.EndLine, loc.Pos.EndColumn)}
}

func fileURI(path string) uri.URI { return uri.File(path) }

func ruleDocURL(code string) string { return ruleDocBase + strings.ToLower(code) }

func toSeverity(s analysis.Severity) protocol.DiagnosticSeverity {
	switch s {
	case analysis.SeverityError:
		return protocol.DiagnosticSeverityError
	case analysis.SeverityWarning:
		return protocol.DiagnosticSeverityWarning
	case analysis.SeverityInfo:
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityHint
}

// diagData is what a diagnostic carries back to the server in code action
// requests: enough to find the engine diagnostic and its fixes again.
type diagData struct {
	Code  string `json:"code"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Fixes int    `json:"fixes"`
}

func toDiagnostic(d analysis.Diagnostic, mappers mapperFor, utf8 bool) protocol.Diagnostic {
	data, _ := json.Marshal(diagData{Code: d.Code, Start: d.Span.Start, End: d.Span.End, Fixes: len(d.Fixes)})
	pd := protocol.Diagnostic{
		Range:           locRange(d.Location, mappers, utf8),
		Severity:        toSeverity(d.Severity),
		Code:            protocol.String(d.Code),
		CodeDescription: protocol.CodeDescription{Href: uri.URI(ruleDocURL(d.Code))},
		Source:          protocol.NewOptional(serverName),
		Message:         protocol.String(d.Message),
		Data:            protocol.LSPAny(data),
	}
	for _, r := range d.Related {
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: fileURI(r.File), Range: locRange(r.Location, mappers, utf8)},
			Message:  r.Message,
		})
	}
	return pd
}

// fromDiagnostic reads back what toDiagnostic stored; ok is false for a
// diagnostic some other tool produced.
func fromDiagnostic(pd protocol.Diagnostic) (diagData, bool) {
	var dd diagData
	if len(pd.Data) == 0 || json.Unmarshal(pd.Data, &dd) != nil || dd.Code == "" {
		return diagData{}, false
	}
	return dd, true
}

// toWorkspaceEdit converts engine edits, which may touch several files.
// Edits are sorted per file so that clients applying them in order see
// each range as the original text defined it.
func toWorkspaceEdit(edits []analysis.TextEdit, mappers mapperFor, utf8 bool) *protocol.WorkspaceEdit {
	sorted := append([]analysis.TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].File != sorted[j].File {
			return sorted[i].File < sorted[j].File
		}
		return sorted[i].Span.Start < sorted[j].Span.Start
	})
	changes := map[uri.URI][]protocol.TextEdit{}
	for _, e := range sorted {
		u := fileURI(e.File)
		changes[u] = append(changes[u], protocol.TextEdit{Range: locRange(e.Location, mappers, utf8), NewText: e.NewText})
	}
	return &protocol.WorkspaceEdit{Changes: changes}
}

// markdownLink is a clickable location in hover text: the file URI with a
// #L<line> fragment, which VS Code opens at the line.
func markdownLink(loc analysis.Location, label string) string {
	return "[" + escapeMarkdown(label) + "](" + fileURI(loc.File).String() + "#L" + strconv.Itoa(loc.Pos.Line) + ")"
}

// escapeMarkdown escapes what markdown would interpret, except inside
// backtick code spans, which the engine's messages use for code and which
// should render as code. With unbalanced backticks everything is escaped.
func escapeMarkdown(s string) string {
	special := "\\*_[]<>"
	if strings.Count(s, "`")%2 == 0 {
		var b strings.Builder
		inCode := false
		for _, r := range s {
			if r == '`' {
				inCode = !inCode
			} else if !inCode && strings.ContainsRune(special, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	r := strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "<", "\\<", ">", "\\>", "`", "\\`")
	return r.Replace(s)
}

// escapeMarkdownBlock escapes multi-line text line by line, leaving lines
// indented as code blocks (four spaces or a tab) verbatim, since markdown
// shows a code block's backslashes literally.
func escapeMarkdownBlock(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "\t") {
			lines[i] = escapeMarkdown(l)
		}
	}
	return strings.Join(lines, "\n")
}
