package analysis

// Reused counts the checks that took the fast path of reuse.go.
func (e *Engine) Reused() int { return e.reused }

// Trivia counts the files re-summarised by moving their previous summary
// (trivia.go).
func (e *Engine) Trivia() int { return e.trivia }

// SetBudget replaces the step budget of the engine's runs.
func (e *Engine) SetBudget(n int) { e.budget = n }

// Unrun counts the changed files the fast path of reuse.go took because
// the analysis never executes them.
func (e *Engine) Unrun() int { return e.unrun }

// DeadBodies counts the changed files the fast path of reuse.go took
// because only bodies the analysis never executed changed.
func (e *Engine) DeadBodies() int { return e.deadBodies }
