package analysis

// Reused counts the checks that took the fast path of reuse.go.
func (e *Engine) Reused() int { return e.reused }

// Trivia counts the files re-summarised by moving their previous summary
// (ir/trivia.go).
func (e *Engine) Trivia() int { return e.trivia }

// SetBudget replaces the step budget of the engine's runs.
func (e *Engine) SetBudget(n int) { e.budget = n }

// Resumed counts the checks that resumed the last run.
func (e *Engine) Resumed() int { return e.resumed }

// SetNoInert makes the engine's runs evaluate inert library functions.
func (e *Engine) SetNoInert(b bool) { e.noInert = b }

// Inert is how many library functions the last full run skipped as inert.
func (e *Engine) Inert() int {
	if e.last == nil {
		return 0
	}
	return e.last.in.inert
}

// Unrun counts the changed files the fast path of reuse.go took because
// the analysis never executes them.
func (e *Engine) Unrun() int { return e.unrun }

// DeadBodies counts the changed files the fast path of reuse.go took
// because only bodies the analysis never executed changed.
func (e *Engine) DeadBodies() int { return e.deadBodies }

// Replayed counts the test modules, main blocks and library entries resumed checks
// replayed (detached.go).
func (e *Engine) Replayed() int { return e.replayed }

// LibraryReplayed reports whether the last check replayed the library
// entries.
func (e *Engine) LibraryReplayed() bool { return e.last != nil && e.last.in.h.libReplayed }

// LookAtContextEveryStep makes runs look at their context at every step,
// so that a test can cancel one at any step, until the returned function
// is called.
func LookAtContextEveryStep() (restore func()) {
	ctxEvery = 1
	return func() { ctxEvery = 4096 }
}

// MayReport reports whether a per-file rule among analyzers may report in
// src (prune.go): the pre-scan parses a file no entry needs only then.
// The version is taken to be exact (Options.ExactVersion); MayReportAt
// says which.
func MayReport(analyzers []*Analyzer, src []byte) bool { return MayReportAt(analyzers, src, true) }

func MayReportAt(analyzers []*Analyzer, src []byte, exact bool) bool {
	return newFileRules(analyzers, exact).mayReport(src)
}

// testAnalyzers is pallas-ls's rule set for this package's own tests,
// which cannot import package rules (it imports this one): the external
// tests hand it over (rules_test.go).
var testAnalyzers []*Analyzer

// UseRulesInInternalTests hands the rule set to the internal tests.
func UseRulesInInternalTests(a []*Analyzer) { testAnalyzers = a }

// SetEveryEntry makes the engine run every module as an entry, so that
// tests can check that the pre-scan's entries lose no finding.
func (e *Engine) SetEveryEntry(b bool) { e.everyEntry = b }

// Facts are the kernel-call facts the last check rendered.
func (e *Engine) Facts() []*KernelCall {
	if e.last == nil {
		return nil
	}
	return e.last.kernelCalls
}

// MemoReused counts the per-call check results analyzer code's memo has
// returned from an earlier report.
func (e *Engine) MemoReused(code string) int {
	if e.last == nil || e.last.memos[code] == nil {
		return 0
	}
	return e.last.memos[code].reused
}
