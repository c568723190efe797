// Package analysis is the pallas-ls engine: from source files to
// Diagnostics with fixes, the one value every front end renders.
//
// Data flow:
//
//	SourceFile bytes
//	  -> prune.go: byte pre-scan of imports; the modules that import Pallas
//	     (directly or not) are the entries, and only they, what they
//	     import, and files the per-file rules may report in (their
//	     trigger words) are analysed
//	  -> Summarize (summary.go, build*.go): pyparse tree -> a small IR of
//	     the file (statements, expressions, defs), its JAX references
//	     (refs.go) and comments; cached by content (check.go, store.go)
//	  -> NewProgram (program.go): modules indexed by every importable name
//	  -> analyze (driver.go, interp.go and friends): an abstract interpreter
//	     run from every entry point, recording each kernel call with the
//	     SPMD contexts it is reached in and what its kernel communicates
//	     (facts.go: KernelCall)
//	  -> Analyzers (analyzer.go; the rules live in analysis/rules) read the
//	     facts and the summaries through a Pass and report Diagnostics
//	  -> suppressions (suppress*.go), severity overrides, sorting.
//
// The Engine keeps the previous run: after an edit that leaves every
// file's IR the same apart from positions (comments, blank lines), it
// moves the old IR to the new positions and only re-renders (reuse.go).
// When the edited file's new tree is its old one apart from comments and
// spacing (pp.TriviaEdit), the positions move by the edit without building
// an IR at all (trivia.go).
//
// The DESIGN comment in interp.go states the lattice, the entry policy
// and why the interpretation terminates. JAX knowledge is not here: what
// an API does, when it changed and what error a context produces come
// from package lowering. Fixes are SuggestedFix values of byte-offset
// edits; fix.go validates and applies them, detecting conflicts.
package analysis
