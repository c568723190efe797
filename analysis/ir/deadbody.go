package ir

import (
	"bytes"
	"maps"
	"slices"
)

// The dead-body path of the engine's re-checks (analysis/reuse.go). A run
// executes a function's body only by calling it (the interpreter records
// every such function); a body
// it never called contributed nothing to the run: the interpreter did not
// read one node of it. An edit that changes only such bodies (and
// positions) leaves a fresh run taking the same steps as the last one, so
// the last run stands, as for an edit of positions alone. Typing inside a
// helper that no entry reaches, a nested function that is only returned,
// a method no one calls: the analysis does not run again.
//
// The old summary stays the one the run refers to: its IR takes the new
// positions in place (as MoveTo), each dead function takes its new body
// whole (the new IR's nodes, now the old summary's), and the lists the
// rules read (Defs, Classes, Refs) are the new summary's with every node
// outside a dead body replaced by its old counterpart. The result equals a
// fresh summary of the new text (TestDeadBodyMatchesFreshSummary).

// CompareDead reports whether b's IR is a's apart from positions, source
// text and the bodies of functions dead says never ran. It changes
// neither; the walk it returns is what MergeDead needs.
func CompareDead(a, b *Summary, dead func(*FuncDef) bool) (*ShapeWalk, bool) {
	return compareSwaps(a, b, dead, nil)
}

// compareSwaps is CompareDead where changed, when set, also says which
// functions' bodies are taken whole.
func compareSwaps(a, b *Summary, dead func(*FuncDef) bool, changed func(x, y *FuncDef) bool) (*ShapeWalk, bool) {
	if a.ParseError != "" || b.ParseError != "" || a.UsesPallas != b.UsesPallas || a.NamesSPMD != b.NamesSPMD || !maps.Equal(a.Imports, b.Imports) {
		return nil, false
	}
	w := &ShapeWalk{defs: make(map[*FuncDef]*FuncDef, len(a.Defs)), classes: make(map[*ClassDef]*ClassDef, len(a.Classes)),
		exprs: map[*Expr]*Expr{}, dead: dead, changed: changed, swaps: map[*FuncDef]*FuncDef{}, calls: map[*Expr]*Expr{}}
	for _, r := range b.Refs {
		if r.Call != nil {
			w.calls[r.Call] = nil
		}
	}
	if !w.stmts(a.Body, b.Body) || len(w.swaps) == 0 {
		return nil, false
	}
	return w, true
}

// CompareBodies is CompareDead where, besides the bodies dead says never
// ran, any function body whose text changed may differ: the run resumes
// from the first entry that ran one (analysis/resume.go). A body of the same text
// has the same IR apart from positions (the IR is built from the text
// alone), so it is walked as usual.
func CompareBodies(a, b *Summary, dead func(*FuncDef) bool) (*ShapeWalk, bool) {
	return compareSwaps(a, b, dead, func(x, y *FuncDef) bool {
		return !bytes.Equal(bodyText(a, x), bodyText(b, y))
	})
}

func bodyText(s *Summary, d *FuncDef) []byte {
	if len(d.Body) == 0 {
		return nil
	}
	return s.Src[d.Body[0].Span.Start:d.Body[len(d.Body)-1].Span.End]
}

// Swapped lists the functions whose bodies the walk found may differ, old
// to new: those a merge (MergeDead) takes whole from the new IR.
func (w *ShapeWalk) Swapped() map[*FuncDef]*FuncDef { return w.swaps }

// MergeDead moves a onto b's text after CompareDead(a, b) returned w.
func MergeDead(a, b *Summary, w *ShapeWalk) {
	// Definitions outside the dead bodies are the old ones (the run's
	// values refer to them); those inside are the new ones, now a's.
	defs := oldOrAdopted(b.Defs, w.defs, func(d *FuncDef) { d.File = a })
	classes := oldOrAdopted(b.Classes, w.classes, func(c *ClassDef) { c.File = a })
	refs := slices.Clone(b.Refs)
	for i := range refs {
		if o := w.calls[refs[i].Call]; o != nil {
			refs[i].Call = o
		}
	}
	p := &ShapeWalk{patch: true, swaps: w.swaps}
	p.stmts(a.Body, b.Body)
	a.Defs, a.Classes, a.Refs = defs, classes, refs
	a.Src, a.Hash, a.Comments, a.SyntaxErrors, a.mapper = b.Src, b.Hash, b.Comments, b.SyntaxErrors, b.mapper
}

// oldOrAdopted lists fresh with each node the walk paired (old -> new in
// pairs) replaced by its old counterpart; the others lie in dead bodies
// and are adopted. A nil list stays nil, as in a fresh summary.
func oldOrAdopted[T any](fresh []*T, pairs map[*T]*T, adopt func(*T)) []*T {
	old := make(map[*T]*T, len(pairs))
	for o, n := range pairs {
		old[n] = o
	}
	out := slices.Clone(fresh)
	for i, n := range fresh {
		if o, ok := old[n]; ok {
			out[i] = o
		} else {
			adopt(n)
		}
	}
	return out
}
