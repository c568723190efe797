package rules

import (
	"bytes"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// Helpers of the kernel-configuration rules (PAL201-PAL205).

// fileOfCall finds the file whose source holds the call expression: the
// file that refers to its callee (a JAX name) at that call.
func fileOfCall(p *analysis.Pass, call *ir.Expr) *ir.Summary {
	if call == nil {
		return nil
	}
	for _, s := range p.Files {
		for i := range s.Refs {
			if s.Refs[i].Call == call {
				return s
			}
		}
	}
	return nil
}

// keywordSpan is `name=value` of a keyword argument.
func keywordSpan(kw *ir.Keyword) pp.Span {
	return pp.Span{Start: kw.NameSpan.Start, End: kw.Value.Span.End}
}

// appendArgEdit inserts text as the last argument of call.
func appendArgEdit(s *ir.Summary, call *ir.Expr, text string) (analysis.TextEdit, bool) {
	if call == nil || call.Kind != ir.ExCall || call.Span.End < 1 || call.Span.End > len(s.Src) || s.Src[call.Span.End-1] != ')' {
		return analysis.TextEdit{}, false
	}
	end := -1
	for _, a := range call.Args {
		end = max(end, a.Span.End)
	}
	for _, kw := range call.Kw() {
		if kw.Value != nil {
			end = max(end, kw.Value.Span.End)
		}
	}
	if end < 0 {
		at := call.Span.End - 1
		return analysis.Edit(s, pp.Span{Start: at, End: at}, text), true
	}
	return analysis.Edit(s, pp.Span{Start: end, End: end}, ", "+text), true
}

// moduleAlias returns the local name under which file s imports module
// qual at its top level ("pltpu" for jax.experimental.pallas.tpu).
func moduleAlias(s *ir.Summary, qual string) (string, bool) {
	best := ""
	for local, q := range s.Imports {
		if q == qual && (best == "" || local < best) {
			best = local
		}
	}
	return best, best != ""
}

// mentions reports whether any file's text contains word (a setting such
// as jax_pallas_auto_assign_collective_ids that is set at run time).
func mentions(p *analysis.Pass, word string) bool {
	for _, s := range p.Files {
		if bytes.Contains(s.Src, []byte(word)) {
			return true
		}
	}
	return false
}

// interpreted reports kernels run in interpret mode: no lowering, so none
// of the lowering-time configuration errors.
func interpreted(kc *analysis.KernelCall) bool {
	return kc.Effects.Interpret || kc.Effects.InterpretParams
}

// dropKeywordEdit removes keyword kw from call, with the comma that
// separates it from its neighbour.
func dropKeywordEdit(s *ir.Summary, call *ir.Expr, kw *ir.Keyword) (analysis.TextEdit, bool) {
	if call == nil || kw == nil || kw.Value == nil {
		return analysis.TextEdit{}, false
	}
	sp := keywordSpan(kw)
	src := s.Src
	end := sp.End
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	if end < len(src) && src[end] == ',' {
		// `f(a=1, kw=2, b=3)` or `f(kw=2,)`: take the comma and the spaces after it.
		end++
		for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
			end++
		}
		return analysis.Edit(s, pp.Span{Start: sp.Start, End: end}, ""), true
	}
	start := sp.Start
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t' || src[start-1] == '\n' || src[start-1] == '\r') {
		start--
	}
	if start > 0 && src[start-1] == ',' {
		return analysis.Edit(s, pp.Span{Start: start - 1, End: sp.End}, ""), true // the last argument
	}
	return analysis.Edit(s, sp, ""), true // the only argument
}

// lowered reports whether some context the call is reached in lowers it
// (not only jit(f).trace, make_jaxpr or eval_shape): the configuration
// errors of PAL201, PAL204 and PAL205 are raised at lowering time.
func lowered(kc *analysis.KernelCall) bool {
	for _, r := range kc.Reaches {
		if !r.TraceOnly {
			return true
		}
	}
	return false
}
