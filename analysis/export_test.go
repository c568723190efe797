package analysis

// Reused counts the checks that took the fast path of reuse.go.
func (e *Engine) Reused() int { return e.reused }
