package ir

import (
	"bytes"
	"sort"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// What the text of a file says around its IR, for rules building fixes:
// its line ending, indentation, the statement at an offset, the aliases
// and names its top level binds, where an import goes.

// Newline returns the file's line ending ("\r\n" if its first line ends so).
func (s *Summary) Newline() string {
	if i := bytes.IndexByte(s.Src, '\n'); i > 0 && s.Src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
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

// ImportInsertion is where and how an import statement goes in the
// file: on its own line after the last module-level import (or after a
// module docstring and __future__ imports, or at the top). It returns the
// empty span to insert at and the text to insert there.
func (s *Summary) ImportInsertion(stmt string) (pp.Span, string) {
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
		return pp.Span{Start: at, End: at}, stmt + nl
	}
	// Insert on a line of its own after that line (a trailing comment
	// stays put).
	m := s.Mapper()
	line := m.Line(at)
	if next := m.LineStart(line + 1); line+1 < m.Lines() && next > m.LineEnd(line) {
		return pp.Span{Start: next, End: next}, stmt + nl
	}
	end := m.LineEnd(line)
	return pp.Span{Start: end, End: end}, nl + stmt
}

func isDocstring(st *Stmt) bool {
	return st.Kind == StExpr && st.Value != nil && st.Value.Kind == ExConst && st.Value.Const().Kind == ConstStr
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
