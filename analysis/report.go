package analysis

import (
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// filesGen numbers reports, for the stamps of lastRun.files; a lastRun's
// map passes to the next run's (carry), so the numbers are global.
var filesGen atomic.Int64

// report runs the rules over a finished analysis: the run's analyzers
// (Options.Analyzers) in code order, each on its own, so that a rule that
// panics loses its own findings only (ruleFailed); then the suppressions,
// severity overrides and sorting.
func report(l *lastRun, opts *Options) *Result {
	prog, sums := l.prog, l.sums
	facts := l.facts()
	colls := l.in.collFacts()
	smaps := l.in.smapFacts()
	refs := l.in.refFacts()
	analyzers := sortedByCode(opts.Analyzers)
	var diags, failures []Diagnostic
	// The per-file findings are updated in place (a file's entry is valid
	// while its hash is the one recorded); a new map per keystroke cost
	// more than the lookups.
	if l.files == nil {
		l.files = map[fileRule]fileFindings{}
	}
	gen, used := int(filesGen.Add(1)), 0
	pass := func(a *Analyzer) *Pass {
		return &Pass{Analyzer: a, Analyzers: analyzers, Files: prog.Files, Options: opts, Version: opts.JAXVersion, KernelCalls: facts, Collectives: colls, ShardMaps: smaps, EagerRefs: refs}
	}
	var suppRules []*Analyzer
	for _, a := range analyzers {
		switch {
		case !enabled(a.Code, opts):
		case a.RunSuppressions != nil:
			suppRules = append(suppRules, a) // once the suppressions are applied
		case a.RunFile != nil:
			// One Pass per rule, not per file and report (runRule gives
			// each run its own report function; nearly every file's
			// findings come from l.files unchanged).
			p := pass(a)
			for _, s := range prog.Files {
				if !opts.reports(s.Path) {
					continue
				}
				found, failed := l.fileFindings(gen, p, s)
				diags, failures = append(diags, found...), append(failures, failed...)
				if failed == nil {
					used++
				}
			}
		default:
			p := pass(a)
			p.memo = l.callMemoFor(a.Code, opts, len(facts))
			found, failed := runRule(p, firstFile(prog), func(p *Pass) { a.Run(p) })
			p.memo.done(failed != nil)
			diags, failures = append(diags, found...), append(failures, failed...)
		}
	}
	l.dropUnseen(gen, used)
	res := &Result{FilesChecked: len(sums), KernelCalls: withTargets(l.kernelInfos(facts), opts)}
	if t := opts.platform; t.Platform != "" {
		res.Platform, res.PlatformReason = t.Platform, t.Reason
	}
	l.suppsNext = make(map[*ir.Summary]fileSuppressions, len(sums))
	diags, n, supps := applySuppressions(prog, diags, l.suppressions)
	res.Suppressed = n
	l.supps, l.suppsNext = l.suppsNext, nil // only the files of this run stay
	for _, a := range suppRules {
		p := pass(a)
		for _, s := range prog.Files {
			if !opts.reports(s.Path) {
				continue
			}
			found, failed := runRule(p, s, func(p *Pass) { a.RunSuppressions(p, s, supps[s.Path]) })
			diags, failures = append(diags, found...), append(failures, failed...)
		}
	}
	for i := range diags {
		if s, ok := opts.Severity[diags[i].Code]; ok {
			diags[i].Severity = s
		}
	}
	res.Diagnostics = dedupe(filterInfo(diags, opts.ShowInfo))
	res.Notes = append(syntaxNotes(sums), failures...)
	if n, ok := l.in.budgetNote(sums); ok {
		res.Notes = append(res.Notes, n)
		res.Incomplete = n.Message
	}
	if len(failures) > 0 && res.Incomplete == "" {
		res.Incomplete = failures[0].Message
	}
	if opts.ReportOnly != nil {
		res.Diagnostics, res.Notes = reportedIn(res.Diagnostics, opts), reportedIn(res.Notes, opts)
	}
	SortDiagnostics(res.Diagnostics)
	return res
}

// reportedIn keeps the diagnostics in the files opts reports.
func reportedIn(diags []Diagnostic, opts *Options) []Diagnostic {
	out := diags[:0]
	for _, d := range diags {
		if opts.reports(d.File) {
			out = append(out, d)
		}
	}
	return out
}

// withTargets is infos with each call's Target filled in from opts (a
// copy: the infos stay the run's, whatever options render them).
func withTargets(infos []KernelCallInfo, opts *Options) []KernelCallInfo {
	out := make([]KernelCallInfo, len(infos))
	p := &Pass{Options: opts}
	for i, k := range infos {
		b := lowering.BackendUnknown
		switch k.Backend {
		case lowering.BackendTPU.String():
			b = lowering.BackendTPU
		case lowering.BackendGPU.String():
			b = lowering.BackendGPU
		}
		t := p.Target(&KernelCall{Backend: b})
		k.Target = t.Backend.String() + ": " + t.Reason
		if b == lowering.BackendUnknown {
			how := "inferred"
			if t.Assumed {
				how = "assumed"
			}
			k.Label = strings.Replace(k.Label, unknownBackendLabel, strings.ToUpper(t.Backend.String())+" ("+how+")", 1)
		}
		out[i] = k
	}
	return out
}

// runRule runs one rule through p and returns its findings. A panic is
// that rule's bug, not the run's: its findings are dropped, a note in
// file says so (a whole-program rule's: the program's first file), and
// the other rules' findings stand.
func runRule(p *Pass, file *ir.Summary, run func(*Pass)) (found, failed []Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			found, failed = nil, []Diagnostic{ruleFailed(p.Analyzer, file, r)}
		}
	}()
	p.report = func(d Diagnostic) { found = append(found, d) }
	run(p)
	return found, nil
}

// ruleFailed is the note about a rule that panicked.
func ruleFailed(a *Analyzer, file *ir.Summary, r any) Diagnostic {
	d := Diagnostic{Code: "note", Severity: SeverityInfo,
		Message: fmt.Sprintf("internal error in rule %s (%s), please report it: %v; its findings are missing", a.Code, a.Name, r)}
	if file != nil {
		d.Location = Locate(file, pp.Span{})
	}
	return d
}

// firstFile is the file a whole-program rule's failure is reported in.
func firstFile(prog *program) *ir.Summary {
	if len(prog.Files) == 0 {
		return nil
	}
	return prog.Files[0]
}

func filterInfo(diags []Diagnostic, show bool) []Diagnostic {
	if show {
		return diags
	}
	out := diags[:0]
	for _, d := range diags {
		if d.Severity <= SeverityWarning {
			out = append(out, d)
		}
	}
	return out
}

// SortDiagnostics orders by file, line, column, code (spec §2).
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		return a.Code < b.Code
	})
}

// notesIn keeps the notes about files the pruned analysis would parse:
// syntax errors are reported where the analysis reads a file, so that
// NoPrune changes only the work done.
func notesIn(notes []Diagnostic, files []SourceFile, keep []bool) []Diagnostic {
	kept := make(map[string]bool, len(files))
	for i, f := range files {
		if keep[i] {
			kept[f.Path] = true
		}
	}
	out := notes[:0:0]
	for _, d := range notes {
		if kept[d.File] {
			out = append(out, d)
		}
	}
	return out
}

// syntaxNotes reports regions that did not parse: the analysis used the
// rest of the file.
func syntaxNotes(sums []*ir.Summary) []Diagnostic {
	var out []Diagnostic
	for _, s := range sums {
		if s.ParseError != "" {
			out = append(out, Diagnostic{Code: "note", Severity: SeverityInfo, Location: Locate(s, pp.Span{}),
				Message: "could not be analysed: " + s.ParseError})
			continue
		}
		for i, e := range s.SyntaxErrors {
			if i == 5 {
				out = append(out, Diagnostic{Code: "note", Severity: SeverityInfo, Location: Locate(s, e.Span),
					Message: fmt.Sprintf("%d more syntax errors in this file", len(s.SyntaxErrors)-5)})
				break
			}
			msg := "syntax error: this region was skipped; the rest of the file was analysed"
			if e.Missing != "" {
				msg = fmt.Sprintf("syntax error: missing %q; the rest of the file was analysed", e.Missing)
			}
			out = append(out, Diagnostic{Code: "note", Severity: SeverityInfo, Location: Locate(s, e.Span), Message: msg})
		}
	}
	return out
}

// dedupe keeps one diagnostic per file, start and code (spec §3: one per
// call site and code, however many bad paths or kernels reach it), the
// most severe first found.
func dedupe(diags []Diagnostic) []Diagnostic {
	type key struct {
		file  string
		start int
		code  string
	}
	best := map[key]int{}
	var out []Diagnostic
	for _, d := range diags {
		k := key{d.File, d.Span.Start, d.Code}
		if i, ok := best[k]; ok {
			if d.Severity < out[i].Severity {
				out[i] = d
			}
			continue
		}
		best[k] = len(out)
		out = append(out, d)
	}
	return out
}
