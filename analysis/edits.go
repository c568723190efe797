package analysis

import (
	"bytes"
	"sort"
	"strings"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// Helpers rules use to build fixes. They keep the user's formatting: edits
// touch only the bytes they must, and new lines use the file's own line
// ending.

// Newline returns the file's line ending ("\r\n" if its first line ends so).
func (s *Summary) Newline() string {
	if i := bytes.IndexByte(s.Src, '\n'); i > 0 && s.Src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// Location returns the Location of a span of this file.
func (s *Summary) Location(sp pp.Span) Location { return s.location(sp) }

// Edit builds a TextEdit replacing span with text.
func (s *Summary) Edit(sp pp.Span, text string) TextEdit {
	return TextEdit{Location: s.location(sp), NewText: text}
}

// AliasFor returns the local name a module-level import binds to qual
// ("pl" for "jax.experimental.pallas"), preferring the shortest; "" if none.
func (s *Summary) AliasFor(qual string) string {
	var names []string
	for local, q := range s.Imports {
		if q == qual {
			names = append(names, local)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		return len(names[i]) < len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
	})
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// Binds reports whether the module binds name at top level (import, def,
// class or assignment), so a fix does not shadow it with a new import.
func (s *Summary) Binds(name string) bool {
	if _, ok := s.Imports[name]; ok {
		return true
	}
	for _, st := range s.Body {
		switch {
		case st.Kind == StDef && st.Def.Name == name, st.Kind == StClass && st.Class.Name == name:
			return true
		case st.Kind == StAssign:
			for _, t := range st.Targets {
				if t.Kind == ExName && t.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// ImportEdit inserts an import statement on its own line after the last
// module-level import (or after a module docstring and __future__
// imports, or at the top).
func (s *Summary) ImportEdit(stmt string) TextEdit {
	nl := s.Newline()
	at, atLineStart := 0, true
	for _, st := range s.Body {
		if st.Kind == StImport {
			at, atLineStart = st.Span.End, false
		}
	}
	if atLineStart && len(s.Body) > 0 && isDocstring(s.Body[0]) {
		at, atLineStart = s.Body[0].Span.End, false
	}
	if atLineStart {
		return s.Edit(pp.Span{Start: at, End: at}, stmt+nl)
	}
	// Insert on a line of its own after that line (a trailing comment
	// stays put).
	m := s.Mapper()
	line := m.Line(at)
	if next := m.LineStart(line + 1); line+1 < m.Lines() && next > m.LineEnd(line) {
		return s.Edit(pp.Span{Start: next, End: next}, stmt+nl)
	}
	end := m.LineEnd(line)
	return s.Edit(pp.Span{Start: end, End: end}, nl+stmt)
}

func isDocstring(st *Stmt) bool {
	return st.Kind == StExpr && st.Value != nil && st.Value.Kind == ExConst && st.Value.Const.Kind == ConstStr
}

// EnsureModuleAlias returns an expression naming module qual in this file
// and the import edit needed, if any: an existing alias, else
// `from parent import leaf as preferred` (or `import qual` for top-level
// packages) when preferred is free.
func (s *Summary) EnsureModuleAlias(qual, preferred string) (string, *TextEdit, bool) {
	if a := s.AliasFor(qual); a != "" {
		return a, nil, true
	}
	if !strings.Contains(qual, ".") {
		if s.Binds(qual) {
			return "", nil, false
		}
		e := s.ImportEdit("import " + qual)
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
	e := s.ImportEdit(stmt)
	return preferred, &e, true
}

// StatementAt returns the innermost statement containing byte offset off
// (nil at module level outside any), for fixes that insert a line before it.
func (s *Summary) StatementAt(off int) *Stmt {
	var best *Stmt
	var walk func([]*Stmt)
	walk = func(body []*Stmt) {
		for _, st := range body {
			if off < st.Span.Start || off >= st.Span.End {
				continue
			}
			best = st
			walk(st.Body)
			walk(st.Else)
			walk(st.Finally)
			if st.Def != nil {
				walk(st.Def.Body)
			}
			if st.Class != nil {
				walk(st.Class.Body)
			}
		}
	}
	walk(s.Body)
	return best
}

// LineIndent returns the start offset and the leading whitespace of the
// line holding off.
func (s *Summary) LineIndent(off int) (int, string) {
	m := s.Mapper()
	start := m.LineStart(m.Line(off))
	end := start
	for end < len(s.Src) && (s.Src[end] == ' ' || s.Src[end] == '\t') {
		end++
	}
	return start, string(s.Src[start:end])
}

// firstLine is the short anchor of spec §3: the span cut at the end of
// its first line.
func (s *Summary) firstLine(sp pp.Span) Location {
	m := s.Mapper()
	if end := m.LineEnd(m.Line(sp.Start)); end < sp.End && end > sp.Start {
		sp.End = end
	}
	return s.location(sp)
}

// location converts a span of this file to a Location.
func (s *Summary) location(sp pp.Span) Location {
	m := s.Mapper()
	l, c := m.LineCol(sp.Start)
	el, ec := m.LineCol(sp.End)
	return Location{File: s.Path, Span: sp, Pos: Position{Line: l, Column: c, EndLine: el, EndColumn: ec}}
}
