package analysis

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// Engine runs checks and keeps per-file summaries keyed by path and
// content, so that a long-lived front end (the language server)
// re-summarises only the files that changed between runs. An Engine is
// safe for concurrent use; checks run one at a time.
type Engine struct {
	mu    sync.Mutex
	cache map[string]*ir.Summary
	scans map[string]cachedScan
	// scansKey names the per-file rules' triggers the scans were made with;
	// otherScans keeps the scans made with other triggers (another JAX
	// version: `check` of a monorepo whose projects pin different ones),
	// a few keys at most.
	scansKey   string
	otherScans map[string]map[string]cachedScan
	rel        relevance
	// live keeps the tree-sitter trees of recently edited files, so the
	// next keystroke re-parses incrementally; order is least recent first.
	live      map[string]*pp.LiveTree
	liveOrder []string
	// last is the previous successful run, for the fast path of reuse.go.
	last   *lastRun
	reused int // checks that took that path
	// shifted holds the summaries moved onto their file's new text in
	// place (ir/trivia.go) since last was computed: reuse marks them moved.
	// A check cancelled after summarising keeps them for the next one.
	shifted map[*ir.Summary]bool
	trivia  int // files re-summarised that way
	unrun   int // changed files the fast path took because no run executes them
	// budget, when positive, replaces every run's step budget (tests).
	budget int
	// noInert runs inert library functions too (tests: inert.go).
	noInert bool
	// everyEntry runs every module as an entry, not only those the
	// pre-scan finds can reach Pallas (tests: prune.go).
	everyEntry bool
	// deadBodies counts changed files it took because only bodies the
	// run never executed changed (ir/deadbody.go).
	deadBodies int
	// resumed counts checks that resumed the last run (resume.go), and
	// replayed the detached entries they replayed (detached.go).
	resumed, replayed int
	// Store, when set, persists summaries and whole results across
	// processes (check's on-disk cache); ToolID distinguishes builds.
	Store  Store
	ToolID string
	// Trees, when set (and Store is not), is an on-disk cache of syntax
	// trees only (the server's, store.go): trees are read from it, and
	// the files parsed instead are queued for UnsavedTrees, so that
	// saving them never delays a check.
	Trees     Store
	treesMu   sync.Mutex
	treeQueue []queuedTree
	// OneShot says the engine checks once (the CLI): a run keeps nothing
	// for a later check to resume, which lowers peak memory.
	OneShot bool
}

// NewEngine returns an Engine with an empty summary cache.
func NewEngine() *Engine {
	return &Engine{cache: map[string]*ir.Summary{}, scans: map[string]cachedScan{}, live: map[string]*pp.LiveTree{}}
}

// Check analyses files as one program and returns the findings of the
// rules opts carries (Options.Analyzers).
func Check(ctx context.Context, files []SourceFile, opts Options) (*Result, error) {
	e := NewEngine()
	e.OneShot = true
	return e.Check(ctx, files, opts)
}

// Check analyses files as one program, reusing cached summaries of files
// whose content did not change since the previous call.
func (e *Engine) Check(ctx context.Context, files []SourceFile, opts Options) (*Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var key string
	hideInfo := false
	if e.Store != nil {
		key = resultKey(e.ToolID, files, &opts)
		if res, ok := loadFiltered(e.Store, key, &opts); ok {
			return res, nil
		}
		// What is saved keeps the infos (store.go: resultKey); they are
		// filtered from what this call returns.
		hideInfo, opts.ShowInfo = !opts.ShowInfo, true
	}
	// Entries and pruning come from one scan of every file, so that
	// NoPrune changes only the work done (prune.go).
	// Module names come from every file, so that pruning never changes them.
	lay := newLayout(paths(files))
	rules := newFileRules(opts.Analyzers, opts.ExactVersion())
	if rules.key != e.scansKey {
		// The scans say which files the per-file rules may report in.
		e.switchScans(rules.key)
	}
	keep, entry, script := relevantCached(files, lay, opts.EntryPoints, rules, e.scans, &e.rel)
	opts.platform = choosePlatform(&opts, files, e.scans, lay.root)
	opts.workspace = files
	analysed := files
	if !opts.NoPrune {
		analysed = analysed[:0:0]
		for i, f := range files {
			if keep[i] {
				analysed = append(analysed, f)
			}
		}
	}
	sums := e.summarize(ctx, analysed)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	optsKey, runKey := opts.key(true), opts.runKey()
	var res *Result
	var err error
	l, at := e.reuse(sums, runKey, lay.key, e.rel.gen)
	if l != nil && l.optsKey != optsKey {
		// Other options for the same run (another settings group): the
		// report is rendered again for them, the per-file rules too.
		l.optsKey, l.files, l.supps = optsKey, nil, nil
	}
	if l != nil && at < 0 {
		e.reused++
		res, err = rerender(ctx, l, &opts)
	} else if l != nil {
		// Edits inside bodies the run executed: resume it (resume.go).
		e.last = nil // until the run is complete again
		e.resumed++
		var ok bool
		res, ok, err = resume(ctx, l, at, e.stepBudget(files, keep), &opts, &e.replayed)
		if ok {
			e.last = l
		}
	} else {
		entries, scripts := map[string]bool{}, map[string]bool{}
		for i, f := range files {
			if entry[i] || e.everyEntry {
				entries[f.Path] = true
			}
			if script[i] {
				scripts[f.Path] = true
			}
		}
		rs := runSettings{budget: e.stepBudget(files, keep), noInert: e.noInert, oneShot: e.OneShot, scripts: scripts}
		carry := &lastRun{}
		if e.last != nil {
			rs.inertPrev = e.last.in.inertCache() // what the inert test read of unchanged functions
		}
		if e.last != nil && e.last.optsKey == optsKey {
			// per-file findings and suppressions of unchanged files stay valid
			carry.files, carry.supps = e.last.files, e.last.supps
		}
		e.last, e.shifted = nil, nil // the new run sees every position as it is now
		var l *lastRun
		res, l, err = run(ctx, sums, lay, entries, rs, &opts, carry)
		if err == nil {
			l.runKey, l.optsKey, l.layout, l.relGen = runKey, optsKey, lay.key, e.rel.gen
			e.last = l
		}
	}
	if res != nil {
		res.FilesChecked = len(files)
		if opts.NoPrune {
			res.Notes = notesIn(res.Notes, files, keep)
		}
		if err == nil && e.Store != nil {
			saveResult(e.Store, key, res)
		}
		if hideInfo {
			res.Diagnostics = filterInfo(slices.Clone(res.Diagnostics), false)
		}
	}
	return res, err
}

// ShareKey is the same for options one analysis can serve: Engine.Check
// analyses again only when the last run's ShareKey differs (or the files
// do), since it compares the interpretation's options (runKey) and which
// files are analysed, which the per-file rules' triggers decide (they
// depend on the rules and on whether the JAX version is exact). A caller
// checking the same files with several options, as `check` does for its
// settings groups, makes its calls in ShareKey order: the runs for
// alternating keys would otherwise each be a new analysis.
func (o *Options) ShareKey() string {
	return o.runKey() + "\x00" + newFileRules(o.Analyzers, o.ExactVersion()).key
}

// maxScanSets bounds the scan caches an engine keeps (one per set of
// per-file rule triggers: in practice, per JAX version).
const maxScanSets = 8

// switchScans makes the scans made with the triggers named key current,
// keeping the current ones for later. The relevance answer is computed
// again from them (relevance.stale) but keeps its generation when the
// answer is the same, so that a run can still be reused (reuse.go): the
// groups of a monorepo that pin different JAX versions share one run.
func (e *Engine) switchScans(key string) {
	if e.otherScans == nil {
		e.otherScans = map[string]map[string]cachedScan{}
	}
	if e.scans != nil {
		if len(e.otherScans) >= maxScanSets {
			clear(e.otherScans)
		}
		e.otherScans[e.scansKey] = e.scans
	}
	e.scans = e.otherScans[key]
	delete(e.otherScans, key)
	if e.scans == nil {
		e.scans = map[string]cachedScan{}
	}
	e.scansKey, e.rel.stale = key, true
}

// run analyses sums as one program. It returns, besides the result, the
// state the fast path of reuse.go can render again.
func run(ctx context.Context, sums []*ir.Summary, lay *layout, entries map[string]bool, rs runSettings, opts *Options, carry *lastRun) (res *Result, l *lastRun, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, l, err = nil, nil, fmt.Errorf("internal error in the analysis (please report it): %v", r)
		}
	}()
	prog := newProgramAt(sums, lay)
	in := analyze(ctx, prog, entries, opts, rs)
	in.keep(rs.oneShot)
	l = &lastRun{sums: sums, prog: prog, in: in, files: carry.files, supps: carry.supps, pending: -1}
	return report(l, opts), l, ctx.Err()
}

// stepBudget is the step budget of a run over the files pruning keeps (so
// that NoPrune changes only the work done), unless a test set one.
func (e *Engine) stepBudget(files []SourceFile, keep []bool) int {
	if e.budget > 0 {
		return e.budget
	}
	kept := 0
	for i, f := range files {
		if keep[i] {
			kept += len(f.Src)
		}
	}
	return stepBudget(kept)
}

// resume takes l's run back to the start of entry k, runs the entries
// from there with the summaries as they are now (merged by reuse), and
// reports the whole result, as a run does. ok says l may be kept: the run
// is complete, or it was cancelled and taken back to entry k again, which
// the next check then resumes from at the latest (l.pending): typing
// faster than a check keeps resuming.
func resume(ctx context.Context, l *lastRun, k, budget int, opts *Options, replayed *int) (res *Result, ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, ok, err = nil, false, fmt.Errorf("internal error in the analysis (please report it): %v", r)
		}
	}()
	n, pending, err := l.in.resume(ctx, budget, resumePoint{k, l.pendingAt}, l.changed, l.changedMods)
	*replayed += n
	l.pending, l.changed, l.changedMods = -1, nil, nil
	// Every fact is rendered again, but for the kernel calls whose
	// contexts did not change and whose files did not move (facts).
	l.kernelCalls, l.infos, l.infoOf, l.byFile = nil, nil, nil, nil
	if err != nil {
		l.pending, l.pendingAt = pending.k, pending.at
		return nil, true, err
	}
	return report(l, opts), true, nil
}

// rerender reports the facts of a previous run again (reuse.go).
func rerender(ctx context.Context, l *lastRun, opts *Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error in the analysis (please report it): %v", r)
		}
	}()
	return report(l, opts), ctx.Err()
}
