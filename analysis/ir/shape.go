package ir

import (
	"maps"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// The IR shape walker: two IRs of one file compared node by node, and the
// first one given the second one's positions (MoveTo), or every position
// moved by an edit (trivia.go), or some function bodies taken whole from
// the second (deadbody.go). The walk visits every field of the IR types; a
// test (TestShapeWalkCoversTheIR) lists those fields, so that a field added
// later cannot be forgotten here.

// SameShape reports whether b's IR is a's apart from positions and source text.
func SameShape(a, b *Summary) bool {
	if a.ParseError != "" || b.ParseError != "" || a.UsesPallas != b.UsesPallas || a.NamesSPMD != b.NamesSPMD ||
		!maps.Equal(a.Imports, b.Imports) || len(a.Refs) != len(b.Refs) ||
		len(a.Defs) != len(b.Defs) || len(a.Classes) != len(b.Classes) {
		return false
	}
	w := &ShapeWalk{defs: make(map[*FuncDef]*FuncDef, len(a.Defs)), classes: make(map[*ClassDef]*ClassDef, len(a.Classes)),
		exprs: map[*Expr]*Expr{}}
	for _, r := range a.Refs {
		if r.Call != nil {
			w.exprs[r.Call] = nil // only these pairs are needed
		}
	}
	if !w.stmts(a.Body, b.Body) {
		return false
	}
	for i, d := range a.Defs {
		if w.defs[d] != b.Defs[i] {
			return false
		}
	}
	for i, c := range a.Classes {
		if w.classes[c] != b.Classes[i] {
			return false
		}
	}
	for i, r := range a.Refs {
		q := b.Refs[i]
		if r.Kind != q.Kind || r.Qual != q.Qual || r.Keyword != q.Keyword || w.exprs[r.Call] != q.Call {
			return false
		}
	}
	return true
}

// MoveTo gives a (of the same shape as b) b's positions and source.
func MoveTo(a, b *Summary) {
	w := &ShapeWalk{patch: true}
	w.stmts(a.Body, b.Body)
	for i := range a.Refs {
		a.Refs[i].Span, a.Refs[i].Root = b.Refs[i].Span, b.Refs[i].Root
	}
	a.Src, a.Hash, a.Comments, a.SyntaxErrors, a.mapper = b.Src, b.Hash, b.Comments, b.SyntaxErrors, b.mapper
}

// ShapeWalk compares two IRs in step; with patch set (and the shapes
// known equal) it copies the second one's positions onto the first.
type ShapeWalk struct {
	patch bool
	// shift, with patch, moves every position by an edit instead (the
	// second IR is then the first: trivia.go).
	shift   *pp.Edit
	defs    map[*FuncDef]*FuncDef
	classes map[*ClassDef]*ClassDef
	exprs   map[*Expr]*Expr
	// dead, when set, reports the functions whose bodies the last run
	// never executed: their bodies may differ (deadbody.go). The walk
	// records them in swaps, and the new IR's reference calls met on the
	// way in calls (new -> old); with patch, swaps lists the bodies to take.
	dead  func(*FuncDef) bool
	swaps map[*FuncDef]*FuncDef
	calls map[*Expr]*Expr
	// changed, when set, reports bodies that differ (CompareBodies): they
	// are swapped too.
	changed func(a, b *FuncDef) bool
}

func (w *ShapeWalk) span(a *pp.Span, b pp.Span) {
	switch {
	case w.shift != nil:
		*a = w.shift.MapSpan(*a)
	case w.patch:
		*a = b
	}
}

func (w *ShapeWalk) expr(a, b *Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Op() != b.Op() || a.Name != b.Name || len(a.Args) != len(b.Args) || len(a.Kw()) != len(b.Kw()) {
		return false
	}
	if (a.Const() == nil) != (b.Const() == nil) || a.Const() != nil && *a.Const() != *b.Const() {
		return false
	}
	if !w.patch {
		if _, ok := w.exprs[a]; ok {
			w.exprs[a] = b
		}
		if _, ok := w.calls[b]; ok {
			w.calls[b] = a
		}
	}
	w.span(&a.Span, b.Span)
	// Arithmetic operands are compared like any expression: the
	// interpreter folds them (a changed literal may change a shape).
	if !w.expr(a.X, b.X) || !pairwise(a.Args, b.Args, w.expr) || !w.def(a.Lambda(), b.Lambda()) {
		return false
	}
	for i := range a.Kw() {
		ka, kb := &a.Kw()[i], &b.Kw()[i]
		if ka.Name != kb.Name || !w.expr(ka.Key, kb.Key) || !w.expr(ka.Value, kb.Value) {
			return false
		}
		w.span(&ka.NameSpan, kb.NameSpan)
	}
	return true
}

func (w *ShapeWalk) exprPairs(a, b []*Expr) bool { return pairwise(a, b, w.expr) }

// inert compares two expressions where the interpreter evaluates a
// constant and discards its value: a statement that is only a constant
// (a docstring). There constants of the same kind may differ in
// value (typing in a docstring keeps the fast path); with patch, the new
// value is copied, so that the old IR equals the new one.
func (w *ShapeWalk) inert(a, b *Expr) bool {
	if a == nil || b == nil || a.Kind != ExConst || b.Kind != ExConst {
		return w.expr(a, b)
	}
	if a.Const() == nil || b.Const() == nil || a.Const().Kind != b.Const().Kind || a.Op() != b.Op() || a.Name != b.Name ||
		a.X != nil || b.X != nil || len(a.Args)+len(b.Args)+len(a.Kw())+len(b.Kw()) != 0 || a.Lambda() != nil || b.Lambda() != nil {
		return w.expr(a, b)
	}
	w.span(&a.Span, b.Span)
	if w.patch && w.shift == nil {
		a.SetConst(*b.Const()) // not through the pointer: a literal's value may be shared (SetConst)
	}
	return true
}

func (w *ShapeWalk) stmts(a, b []*Stmt) bool { return pairwise(a, b, w.stmt) }

// pairwise reports whether a and b have the same length and same(a[i], b[i]) holds for each i.
func pairwise[T any](a, b []T, same func(T, T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (w *ShapeWalk) stmt(a, b *Stmt) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Aug != b.Aug || len(a.Items) != len(b.Items) {
		return false
	}
	w.span(&a.Span, b.Span)
	value := w.expr
	if a.Kind == StExpr {
		value = w.inert
	}
	if (a.Main == nil) != (b.Main == nil) {
		return false
	}
	var body bool
	if a.Main != nil {
		// A script's main block is walked (and swapped) as the body of
		// its Main, which holds the same statements.
		body = w.def(a.Main, b.Main)
		a.Body = a.Main.Body
	} else {
		body = w.stmts(a.Body, b.Body)
	}
	if !w.exprPairs(a.Targets, b.Targets) || !value(a.Value, b.Value) || !w.expr(a.Cond, b.Cond) ||
		!body || !w.stmts(a.Else, b.Else) || !w.stmts(a.Finally, b.Finally) ||
		!w.def(a.Def, b.Def) || !w.class(a.Class, b.Class) || !w.imp(a.Import, b.Import) {
		return false
	}
	for i := range a.Items {
		if !w.expr(a.Items[i].Ctx, b.Items[i].Ctx) || !w.expr(a.Items[i].Target, b.Items[i].Target) {
			return false
		}
	}
	return true
}

func (w *ShapeWalk) imp(a, b *Import) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.From != b.From || a.Level != b.Level || a.Module != b.Module || a.Star != b.Star || len(a.Names) != len(b.Names) {
		return false
	}
	for i := range a.Names {
		na, nb := &a.Names[i], &b.Names[i]
		if na.Name != nb.Name || na.As != nb.As {
			return false
		}
		w.span(&na.Span, nb.Span)
	}
	return true
}

func (w *ShapeWalk) def(a, b *FuncDef) bool {
	if a == nil || b == nil {
		return a == b
	}
	// A body the last run never executed is taken whole from the new IR:
	// nothing of it reached the analysis (deadbody.go).
	dead := w.patch && w.swaps[a] == b || !w.patch && (w.dead != nil && w.dead(a) || w.changed != nil && w.changed(a, b))
	if a.Name != b.Name || a.Qual != b.Qual || a.Lambda != b.Lambda || a.MocksSPMD != b.MocksSPMD && !dead ||
		len(a.Params) != len(b.Params) {
		return false
	}
	if !w.patch {
		w.defs[a] = b
	}
	w.span(&a.Span, b.Span)
	w.span(&a.NameSpan, b.NameSpan)
	for i := range a.Params {
		pa, pb := &a.Params[i], &b.Params[i]
		if pa.Name != pb.Name || pa.Kind != pb.Kind || !w.expr(pa.Default, pb.Default) || !w.expr(pa.Annotation, pb.Annotation) {
			return false
		}
	}
	if !w.exprPairs(a.Decorators, b.Decorators) {
		return false
	}
	if dead {
		if w.patch {
			a.Body, a.MocksSPMD = b.Body, b.MocksSPMD
		} else {
			w.swaps[a] = b
		}
		return true
	}
	return w.stmts(a.Body, b.Body)
}

func (w *ShapeWalk) class(a, b *ClassDef) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Name != b.Name || a.Qual != b.Qual {
		return false
	}
	if !w.patch {
		w.classes[a] = b
	}
	w.span(&a.Span, b.Span)
	w.span(&a.NameSpan, b.NameSpan)
	return w.exprPairs(a.Bases, b.Bases) && w.exprPairs(a.Decorators, b.Decorators) && w.stmts(a.Body, b.Body)
}
