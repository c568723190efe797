package analysis

// Reused counts the checks that took the fast path of reuse.go.
func (e *Engine) Reused() int { return e.reused }

// Trivia counts the files re-summarised by moving their previous summary
// (trivia.go).
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
