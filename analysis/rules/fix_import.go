package rules

import (
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// importFix rewrites `from old.module import name [as alias]` to import
// the replacement, keeping the local name the rest of the file uses
// (`from jax.experimental.pallas import semaphore_signal`, or
// `from jax.experimental.pallas.tpu import CompilerParams as TPUCompilerParams`).
// A statement importing several names loses just this one and gains a
// line of its own. jax.shard_map changes its signature, so its import is
// left to the call-site fix.
func importFix(p *analysis.Pass, s *ir.Summary, ref ir.APIRef, api lowering.API) (analysis.SuggestedFix, bool) {
	newQ := api.ReplacedBy
	if newQ == "" || newQ == "jax.shard_map" {
		return analysis.SuggestedFix{}, false
	}
	if repl, ok := lowering.Lookup(newQ); ok && repl.StatusAt(p.Version) != lowering.StatusOK {
		return analysis.SuggestedFix{}, false
	}
	st := s.StatementAt(ref.Span.Start)
	if st == nil || st.Kind != ir.StImport || st.Import == nil || !st.Import.From {
		return analysis.SuggestedFix{}, false
	}
	oldName, local := splitAlias(s.Text(ref.Span))
	newMod, newName := split(newQ)
	if local == "" {
		local = oldName
	}
	stmt := "from " + newMod + " import " + newName
	if local != newName {
		stmt += " as " + local
	}
	fix := analysis.SuggestedFix{Title: "Import `" + short(newQ) + "` instead", Applicability: analysis.Safe}
	if len(st.Import.Names) == 1 {
		fix.Edits = []analysis.TextEdit{analysis.Edit(s, st.Span, stmt)}
		return fix, true
	}
	cut, ok := listItemSpan(s, ref.Span)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	m := s.Mapper()
	next := m.LineStart(m.Line(st.Span.End) + 1)
	_, indent := s.LineIndent(st.Span.Start)
	fix.Edits = []analysis.TextEdit{analysis.Edit(s, cut, ""), analysis.Edit(s, pp.Span{Start: next, End: next}, indent+stmt+s.Newline())}
	if next <= st.Span.End { // the statement ends the file
		fix.Edits[1] = analysis.Edit(s, pp.Span{Start: len(s.Src), End: len(s.Src)}, s.Newline()+indent+stmt)
	}
	return fix, true
}

func splitAlias(text string) (name, alias string) {
	if i := strings.Index(text, " as "); i >= 0 {
		return strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+4:])
	}
	return strings.TrimSpace(text), ""
}

// listItemSpan extends an imported name's span over one separating comma
// (the one after it, else the one before) and the blanks beside it.
func listItemSpan(s *ir.Summary, sp pp.Span) (pp.Span, bool) {
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' }
	j := sp.End
	for j < len(s.Src) && blank(s.Src[j]) {
		j++
	}
	if j < len(s.Src) && s.Src[j] == ',' {
		j++
		for j < len(s.Src) && (s.Src[j] == ' ' || s.Src[j] == '\t') {
			j++
		}
		return pp.Span{Start: sp.Start, End: j}, true
	}
	i := sp.Start
	for i > 0 && blank(s.Src[i-1]) {
		i--
	}
	if i > 0 && s.Src[i-1] == ',' {
		return pp.Span{Start: i - 1, End: sp.End}, true
	}
	return pp.Span{}, false
}
