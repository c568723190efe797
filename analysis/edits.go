package analysis

import (
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// Where the IR meets the contract: a span of a file as a Location, and the
// edits rules build fixes from. They keep the user's formatting: edits
// touch only the bytes they must, and new lines use the file's own line
// ending (the text helpers of the IR: Summary.Newline, LineIndent, ...).

// Locate returns the Location of span sp of file s.
func Locate(s *ir.Summary, sp pp.Span) Location {
	m := s.Mapper()
	l, c := m.LineCol(sp.Start)
	el, ec := m.LineCol(sp.End)
	return Location{File: s.Path, Span: sp, Pos: Position{Line: l, Column: c, EndLine: el, EndColumn: ec}}
}

// firstLine is the short anchor of spec §3: the span cut at the end of
// its first line.
func firstLine(s *ir.Summary, sp pp.Span) Location {
	m := s.Mapper()
	if end := m.LineEnd(m.Line(sp.Start)); end < sp.End && end > sp.Start {
		sp.End = end
	}
	return Locate(s, sp)
}

// Edit builds a TextEdit replacing span sp of file s with text.
func Edit(s *ir.Summary, sp pp.Span, text string) TextEdit {
	return TextEdit{Location: Locate(s, sp), NewText: text}
}

// ImportEdit inserts an import statement into file s on a line of its own
// (Summary.ImportInsertion says where).
func ImportEdit(s *ir.Summary, stmt string) TextEdit {
	sp, text := s.ImportInsertion(stmt)
	return Edit(s, sp, text)
}

// EnsureModuleAlias returns an expression naming module qual in file s
// and the import edit needed, if any: an existing alias, else
// `from parent import leaf as preferred` (or `import qual` for top-level
// packages) when preferred is free.
func EnsureModuleAlias(s *ir.Summary, qual, preferred string) (string, *TextEdit, bool) {
	if a := s.AliasFor(qual); a != "" {
		return a, nil, true
	}
	if !strings.Contains(qual, ".") {
		if s.Binds(qual) {
			return "", nil, false
		}
		e := ImportEdit(s, "import "+qual)
		return qual, &e, true
	}
	if s.Binds(preferred) {
		return "", nil, false
	}
	i := strings.LastIndexByte(qual, '.')
	stmt := "from " + qual[:i] + " import " + qual[i+1:]
	if preferred != qual[i+1:] {
		stmt += " as " + preferred
	}
	e := ImportEdit(s, stmt)
	return preferred, &e, true
}
