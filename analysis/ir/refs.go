package ir

import (
	"slices"
	"strings"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// RefKind says what an APIRef names.
type RefKind uint8

const (
	RefExpr    RefKind = iota + 1 // a name or attribute chain in code
	RefImport                     // a name in an import statement
	RefKeyword                    // a keyword argument of a call
)

// APIRef is one place where a file names something under `jax`, resolved
// through the file's own imports (so `T.semaphore_signal` after
// `from jax.experimental.pallas import tpu as T` is
// "jax.experimental.pallas.tpu.semaphore_signal", and a user's own
// `semaphore_signal` is nothing).
type APIRef struct {
	Kind RefKind
	Qual string // the referenced name; for RefKeyword, the callee
	Span pp.Span
	// Keyword is the keyword name for RefKeyword.
	Keyword string
	// Root is, for RefExpr, the span of the chain's leftmost name, whose
	// alias a fix may rewrite.
	Root pp.Span
	// Call is the call expression: for RefKeyword the call the keyword is
	// passed to; for RefExpr the call whose callee this reference is, if any.
	Call *Expr
}

type refScope struct {
	parent  *refScope
	imports map[string]string
	locals  map[string]bool
}

func (s *refScope) resolve(name string) (string, bool) {
	for ; s != nil; s = s.parent {
		if q, ok := s.imports[name]; ok {
			return q, true
		}
		if s.locals[name] {
			return "", false
		}
	}
	return "", false
}

type refCollector struct {
	out   []APIRef
	quals map[string]string // the Quals so far, interned: a file names a few JAX APIs many times
}

func collectRefs(s *Summary) []APIRef {
	rc := &refCollector{}
	rc.body(newRefScope(nil, nil, s.Body), s.Body)
	if len(rc.out) == 0 {
		return nil
	}
	return slices.Clone(rc.out) // kept with the summary: no spare capacity
}

// add appends r with its Qual interned.
func (rc *refCollector) add(r APIRef) {
	if q, ok := rc.quals[r.Qual]; ok {
		r.Qual = q
	} else {
		if rc.quals == nil {
			rc.quals = map[string]string{}
		}
		rc.quals[r.Qual] = r.Qual
	}
	rc.out = append(rc.out, r)
}

// newRefScope binds the names a body assigns or imports, anywhere in it
// (Python decides locality for the whole function body at once).
func newRefScope(parent *refScope, params []Param, body []*Stmt) *refScope {
	sc := &refScope{parent: parent, imports: map[string]string{}, locals: map[string]bool{}}
	for _, p := range params {
		sc.locals[p.Name] = true
	}
	WalkStmts(body, func(st *Stmt) {
		switch st.Kind {
		case StImport:
			BindImport(sc.imports, st.Import)
		case StAssign, StLoop:
			for _, t := range st.Targets {
				BindTargets(t, sc.locals)
			}
		case StWith:
			for _, it := range st.Items {
				if it.Target != nil {
					BindTargets(it.Target, sc.locals)
				}
			}
		case StDef:
			sc.locals[st.Def.Name] = true
		case StClass:
			sc.locals[st.Class.Name] = true
		}
	})
	for n := range sc.imports {
		delete(sc.locals, n)
	}
	return sc
}

func BindTargets(e *Expr, locals map[string]bool) {
	switch e.Kind {
	case ExName:
		locals[e.Name] = true
	case ExTuple, ExList:
		for _, a := range e.Args {
			BindTargets(a, locals)
		}
	case ExStarred:
		BindTargets(e.X, locals)
	}
}

// WalkStmts visits the statements of one scope: nested blocks, but not the
// bodies of nested defs and classes.
func WalkStmts(body []*Stmt, f func(*Stmt)) {
	for _, st := range body {
		f(st)
		if st.Kind == StDef || st.Kind == StClass {
			continue
		}
		WalkStmts(st.Body, f)
		WalkStmts(st.Else, f)
		WalkStmts(st.Finally, f)
	}
}

func (rc *refCollector) body(sc *refScope, body []*Stmt) {
	for _, st := range body {
		rc.stmt(sc, st)
	}
}

func (rc *refCollector) stmt(sc *refScope, st *Stmt) {
	for _, e := range []*Expr{st.Value, st.Cond} {
		rc.expr(sc, e)
	}
	for _, t := range st.Targets {
		rc.expr(sc, t)
	}
	for _, it := range st.Items {
		rc.expr(sc, it.Ctx)
	}
	switch st.Kind {
	case StDef:
		rc.def(sc, st.Def)
	case StClass:
		for _, d := range st.Class.Decorators {
			rc.expr(sc, d)
		}
		for _, b := range st.Class.Bases {
			rc.expr(sc, b)
		}
		rc.body(newRefScope(sc, nil, st.Class.Body), st.Class.Body)
	case StImport:
		rc.imports(st.Import)
	}
	rc.body(sc, st.Body)
	rc.body(sc, st.Else)
	rc.body(sc, st.Finally)
}

func (rc *refCollector) def(sc *refScope, f *FuncDef) {
	for _, d := range f.Decorators {
		rc.expr(sc, d)
	}
	for _, p := range f.Params {
		if p.Default != nil {
			rc.expr(sc, p.Default)
		}
	}
	rc.body(newRefScope(sc, f.Params, f.Body), f.Body)
}

func (rc *refCollector) imports(imp *Import) {
	if imp.Level > 0 || !strings.HasPrefix(imp.Module+".", "jax.") && imp.From {
		return
	}
	for _, n := range imp.Names {
		q := n.Name
		if imp.From {
			q = imp.Module + "." + n.Name
		}
		if strings.HasPrefix(q, "jax.") {
			rc.add(APIRef{Kind: RefImport, Qual: q, Span: n.Span})
		}
	}
}

// isPartial reports whether e names functools.partial.
func isPartial(sc *refScope, e *Expr) bool {
	switch e.Kind {
	case ExName:
		q, ok := sc.resolve(e.Name)
		return ok && q == "functools.partial"
	case ExAttr:
		if e.Name != "partial" || e.X == nil || e.X.Kind != ExName {
			return false
		}
		q, ok := sc.resolve(e.X.Name)
		return ok && q == "functools"
	}
	return false
}

// qualOf resolves a name or attribute chain; ok is false for anything that
// is not rooted in an import.
//
// Only references into JAX are wanted, so a chain whose root does not
// resolve to a name starting with "jax" is dropped before any string is
// built (most chains: self.x, np.y).
func qualOf(sc *refScope, e *Expr) (q string, root pp.Span, ok bool) {
	switch e.Kind {
	case ExName:
		q, ok = sc.resolve(e.Name)
		if !ok || !strings.HasPrefix(q, "jax") {
			return "", pp.Span{}, false
		}
		return q, e.Span, true
	case ExAttr:
		q, root, ok = qualOf(sc, e.X)
		if !ok {
			return "", pp.Span{}, false
		}
		return q + "." + e.Name, root, true
	}
	return "", pp.Span{}, false
}

func (rc *refCollector) expr(sc *refScope, e *Expr) {
	if e == nil {
		return
	}
	switch e.Kind {
	case ExName, ExAttr:
		if q, root, ok := qualOf(sc, e); ok && strings.HasPrefix(q, "jax") {
			rc.add(APIRef{Kind: RefExpr, Qual: q, Span: e.Span, Root: root})
		}
	case ExCall:
		q, _, ok := qualOf(sc, e.X)
		if !ok && isPartial(sc, e.X) && len(e.Args) > 0 {
			// functools.partial(pl.kernel, out_shape=...): the keywords
			// are the wrapped callee's.
			q, _, ok = qualOf(sc, e.Args[0])
		}
		if ok && strings.HasPrefix(q, "jax") {
			for _, kw := range e.Kw() {
				if kw.Name != "" {
					rc.add(APIRef{Kind: RefKeyword, Qual: q, Span: kw.NameSpan, Keyword: kw.Name, Call: e})
				}
			}
		}
	case ExLambda:
		rc.def(sc, e.Lambda())
		return
	}
	if e.Kind != ExName {
		n := len(rc.out)
		rc.expr(sc, e.X)
		if e.Kind == ExCall {
			for i := n; i < len(rc.out); i++ {
				if rc.out[i].Kind == RefExpr && rc.out[i].Span == e.X.Span {
					rc.out[i].Call = e
				}
			}
		}
	}
	for _, a := range e.Args {
		rc.expr(sc, a)
	}
	for _, kw := range e.Kw() {
		rc.expr(sc, kw.Key)
		rc.expr(sc, kw.Value)
	}
}
