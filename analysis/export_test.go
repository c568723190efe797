package analysis

// Reused counts the checks that took the fast path of reuse.go.
func (e *Engine) Reused() int { return e.reused }

// Trivia counts the files re-summarised by moving their previous summary
// (trivia.go).
func (e *Engine) Trivia() int { return e.trivia }
