package rules

import (
	"fmt"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// apiHistory reports the references of file s to JAX names and keywords
// whose status at the configured version is want (removed for PAL301,
// deprecated for PAL302), with a fix to the new spelling.
func apiHistory(p *analysis.Pass, s *ir.Summary, want lowering.Status) {
	var flagged []pp.Span
	for _, ref := range s.Refs {
		if covered(flagged, ref.Span) {
			continue
		}
		if d, ok := historyFinding(p, s, ref, want); ok {
			flagged = append(flagged, ref.Span)
			p.Report(d)
		}
	}
}

// historyTriggers are the words a file must contain for apiHistory to
// report in it (lowering.HistoryTriggers).
var historyTriggers = lowering.HistoryTriggers()

// sinceTriggers: the words of what a version does not have yet, which
// PAL301 reports only for an exact version (Analyzer.ExactTriggers).
var sinceTriggers = lowering.SinceTriggers()

// covered reports whether a reference lies inside one already flagged
// (`pltpu.TPUMemorySpace.ANY` is one finding, at `pltpu.TPUMemorySpace`).
func covered(flagged []pp.Span, sp pp.Span) bool {
	for _, f := range flagged {
		if f.Start <= sp.Start && sp.End <= f.End || sp.Start <= f.Start && f.End <= sp.End {
			return true
		}
	}
	return false
}

func historyFinding(p *analysis.Pass, s *ir.Summary, ref ir.APIRef, want lowering.Status) (analysis.Diagnostic, bool) {
	if want == lowering.StatusRemoved && p.Options.ExactVersion() {
		if d, handled := notYetFinding(p, s, ref); handled {
			return d, d.Message != ""
		}
	}
	if ref.Kind == ir.RefKeyword {
		kc, ok := lowering.KeywordChangeFor(ref.Qual, ref.Keyword)
		if !ok || kc.StatusAt(p.Version) != want {
			return analysis.Diagnostic{}, false
		}
		d := analysis.Diagnostic{Location: analysis.Locate(s, ref.Span),
			Message: fmt.Sprintf("keyword `%s=` of `%s` %s: %s", ref.Keyword, short(kc.Callee), statusPhrase(want, p), kc.Note)}
		if fix, ok := keywordFix(p, s, ref, kc); ok {
			d.Fixes = []analysis.SuggestedFix{fix}
		}
		if want == lowering.StatusRemoved {
			d.JAXError = missingError(lowering.MissingKeyword, kc.Callee, ref.Keyword)
		}
		return d, true
	}
	api, ok := lowering.Lookup(ref.Qual)
	if !ok || api.StatusAt(p.Version) != want {
		return analysis.Diagnostic{}, false
	}
	if ref.Kind == ir.RefExpr && ref.Span == ref.Root && api.ReplacedBy != "" && api.ReplacedBy != "jax.shard_map" {
		// A bare name can only resolve to the API through
		// `from ... import name`, whose fix imports the replacement under
		// the same local name: that import is the one finding. (The old
		// shard_map's fix rewrites each call, so its calls stay findings.)
		return analysis.Diagnostic{}, false
	}
	msg := fmt.Sprintf("`%s` %s", short(ref.Qual), statusPhrase(want, p))
	if api.Note != "" {
		msg += ": " + api.Note
	} else if api.ReplacedBy != "" {
		msg += "; use `" + short(api.ReplacedBy) + "`"
	}
	d := analysis.Diagnostic{Location: analysis.Locate(s, ref.Span), Message: msg}
	fix, ok := analysis.SuggestedFix{}, false
	switch ref.Kind {
	case ir.RefExpr:
		fix, ok = renameFix(p, s, ref, api)
	case ir.RefImport:
		fix, ok = importFix(p, s, ref, api)
	}
	if ok {
		d.Fixes = []analysis.SuggestedFix{fix}
	}
	if want == lowering.StatusRemoved && ref.Kind == ir.RefExpr {
		if typ, msg, ok := lowering.RemovedError(api, p.Version); ok {
			d.JAXError = &analysis.JAXError{Type: typ, Message: msg}
		}
	}
	return d, true
}

// notYetFinding reports a reference to a name, module or keyword that the
// configured version does not have yet, with the exception JAX raises
// (AttributeError, ImportError, TypeError). handled with an empty
// diagnostic means the reference is silent: a name inside a module that
// is itself missing (the module's import is the one finding), or a bare
// name whose `from ... import` is.
func notYetFinding(p *analysis.Pass, s *ir.Summary, ref ir.APIRef) (d analysis.Diagnostic, handled bool) {
	d.Location = analysis.Locate(s, ref.Span)
	if ref.Kind == ir.RefKeyword {
		kc, ok := lowering.KeywordChangeFor(ref.Qual, ref.Keyword)
		if !ok || kc.StatusAt(p.Version) != lowering.StatusNotYet {
			return analysis.Diagnostic{}, false
		}
		d.Message = fmt.Sprintf("keyword `%s=` of `%s` does not exist in %s yet: %s", ref.Keyword, short(kc.Callee), version(p), kc.Note)
		d.JAXError = missingError(lowering.MissingKeyword, kc.Callee, ref.Keyword)
		return d, true
	}
	kind := lowering.MissingAttribute
	if ref.Kind == ir.RefImport {
		kind = lowering.MissingFromImport
		if s.Text(ref.Span) == ref.Qual {
			kind = -1 // `import a.b.c`: ModuleNotFoundError, worded by the import system
		}
	}
	if m, ok := lowering.MissingModuleAt(ref.Qual, p.Version); ok {
		if ref.Qual != m.Name || ref.Kind == ir.RefExpr && ref.Span == ref.Root {
			return analysis.Diagnostic{}, true
		}
		d.Message = fmt.Sprintf("module `%s` does not exist in %s yet: it was added in %s", short(m.Name), version(p), m.Since)
		d.JAXError = missingError(kind, ref.Qual, "")
		return d, true
	}
	api, ok := lowering.Lookup(ref.Qual)
	if !ok || api.Name != ref.Qual || api.StatusAt(p.Version) != lowering.StatusNotYet {
		// Private spellings (jax._src...) may predate the public name.
		return analysis.Diagnostic{}, false
	}
	if ref.Kind == ir.RefExpr && ref.Span == ref.Root {
		return analysis.Diagnostic{}, true // reached through `from ... import name`, reported there
	}
	d.Message = fmt.Sprintf("`%s` does not exist in %s yet: it was added in %s", short(api.Name), version(p), api.Since)
	d.JAXError = missingError(kind, ref.Qual, "")
	return d, true
}

func missingError(kind lowering.MissingKind, qual, keyword string) *analysis.JAXError {
	typ, msg, ok := lowering.MissingError(kind, qual, keyword)
	if !ok {
		return nil
	}
	return &analysis.JAXError{Type: typ, Message: msg}
}

func statusPhrase(st lowering.Status, p *analysis.Pass) string {
	if st == lowering.StatusRemoved {
		return "does not exist in " + version(p)
	}
	return "is deprecated in " + version(p)
}

// short abbreviates the usual Pallas module paths the way users write them.
func short(q string) string {
	for _, r := range [][2]string{
		{"jax.experimental.pallas.tpu.", "pltpu."},
		{"jax.experimental.pallas.mosaic_gpu.", "plgpu."},
		{"jax.experimental.pallas.", "pl."},
	} {
		if strings.HasPrefix(q, r[0]) {
			return r[1] + q[len(r[0]):]
		}
	}
	return q
}

// renameFix rewrites a reference to its replacement: within the same
// module only the last name changes (keeping the user's alias); across
// modules the reference is re-rooted at an alias of the new module,
// adding its import when needed.
func renameFix(p *analysis.Pass, s *ir.Summary, ref ir.APIRef, api lowering.API) (analysis.SuggestedFix, bool) {
	newQ := api.ReplacedBy
	if newQ == "" {
		return analysis.SuggestedFix{}, false
	}
	if repl, ok := lowering.Lookup(newQ); ok && repl.StatusAt(p.Version) != lowering.StatusOK {
		return analysis.SuggestedFix{}, false
	}
	if newQ == "jax.shard_map" {
		return shardMapFix(p, s, ref)
	}
	text := s.Text(ref.Span)
	oldMod, oldName := split(ref.Qual)
	newMod, newName := split(newQ)
	title := fmt.Sprintf("Replace `%s` with `%s`", short(ref.Qual), short(newQ))
	if oldMod == newMod && strings.HasSuffix(text, oldName) && ref.Root != ref.Span {
		e := analysis.Edit(s, pp.Span{Start: ref.Span.End - len(oldName), End: ref.Span.End}, newName)
		return analysis.SuggestedFix{Title: title, Applicability: analysis.Safe, Edits: []analysis.TextEdit{e}}, true
	}
	alias, imp, ok := analysis.EnsureModuleAlias(s, newMod, preferredAlias(newMod))
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	edits := []analysis.TextEdit{analysis.Edit(s, ref.Span, alias+"."+newName)}
	if imp != nil {
		edits = append(edits, *imp)
	}
	return analysis.SuggestedFix{Title: title, Applicability: analysis.Safe, Edits: edits}, true
}

func split(q string) (string, string) {
	i := strings.LastIndexByte(q, '.')
	if i < 0 {
		return "", q
	}
	return q[:i], q[i+1:]
}

func preferredAlias(mod string) string {
	switch mod {
	case "jax.experimental.pallas":
		return "pl"
	case "jax.experimental.pallas.tpu":
		return "pltpu"
	case "jax.experimental.pallas.mosaic_gpu":
		return "plgpu"
	}
	_, last := split(mod)
	return last
}
