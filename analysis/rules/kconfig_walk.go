package rules

import (
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// A per-file view for the syntactic configuration rules (PAL202, PAL203):
// every expression of each scope, with the names the scope binds once to
// a value, so `mesh = pltpu.TensorCoreMesh(...)` then `pltpu.HBM @ mesh`
// resolves without the interpreter.

// fileScopes visits each scope of s (the module, then every def and
// lambda) with its expressions and its single assignments.
func fileScopes(s *ir.Summary, visit func(sc *scopeView)) {
	module := newScopeView(s, s.Body, nil, nil)
	visit(module)
	for _, d := range s.Defs {
		visit(newScopeView(s, d.Body, d, module))
	}
	for _, c := range s.Classes {
		visit(newScopeView(s, c.Body, nil, module))
	}
}

// scopeView is one scope: its statements (not those of nested defs),
// the names it binds exactly once by plain assignment, and the names it
// binds otherwise (parameters, loops, imports, several assignments).
type scopeView struct {
	s      *ir.Summary
	body   []*ir.Stmt
	once   map[string]*ir.Expr
	other  map[string]bool
	parent *scopeView
	refs   map[pp.Span]string // expression span -> qualified name (RefExpr)
}

func newScopeView(s *ir.Summary, body []*ir.Stmt, def *ir.FuncDef, parent *scopeView) *scopeView {
	sc := &scopeView{s: s, body: body, once: map[string]*ir.Expr{}, other: map[string]bool{}, parent: parent}
	if parent != nil {
		sc.refs = parent.refs
	} else {
		sc.refs = map[pp.Span]string{}
		for _, r := range s.Refs {
			if r.Kind == ir.RefExpr {
				sc.refs[r.Span] = r.Qual
			}
		}
	}
	if def != nil {
		for _, p := range def.Params {
			sc.other[p.Name] = true
		}
	}
	count := map[string]int{}
	ir.WalkStmts(body, func(st *ir.Stmt) {
		switch st.Kind {
		case ir.StAssign:
			for _, t := range st.Targets {
				if t.Kind == ir.ExName && !st.Aug {
					count[t.Name]++
					sc.once[t.Name] = st.Value
				} else {
					bindAll(t, sc.other)
				}
			}
		case ir.StLoop:
			for _, t := range st.Targets {
				bindAll(t, sc.other)
			}
		case ir.StWith:
			for _, it := range st.Items {
				if it.Target != nil {
					bindAll(it.Target, sc.other)
				}
			}
		case ir.StDef:
			sc.other[st.Def.Name] = true
		case ir.StClass:
			sc.other[st.Class.Name] = true
		case ir.StImport:
			for _, n := range st.Import.Names {
				name := n.As
				if name == "" {
					name = n.Name
				}
				sc.other[name] = true
			}
		}
	})
	for name, n := range count {
		if n != 1 || sc.other[name] {
			delete(sc.once, name)
			sc.other[name] = true
		}
	}
	return sc
}

func bindAll(t *ir.Expr, into map[string]bool) {
	locals := map[string]bool{}
	ir.BindTargets(t, locals)
	for n := range locals {
		into[n] = true
	}
}

// qual is the JAX name an expression refers to ("" if none), resolved
// through lowering's aliases.
func (sc *scopeView) qual(e *ir.Expr) string {
	if e == nil {
		return ""
	}
	q := sc.refs[e.Span]
	if q == "" {
		return ""
	}
	if api, ok := lowering.Lookup(q); ok {
		return api.Name
	}
	return q
}

// value follows a name to the value it is bound to once, in this scope
// or (when this scope does not bind it) the module's.
func (sc *scopeView) value(e *ir.Expr) *ir.Expr {
	for depth := 0; e != nil && e.Kind == ir.ExName && depth < 4; depth++ {
		v := sc.lookup(e.Name)
		if v == nil {
			return e
		}
		e = v
	}
	return e
}

func (sc *scopeView) lookup(name string) *ir.Expr {
	for c := sc; c != nil; c = c.parent {
		if v, ok := c.once[name]; ok {
			return v
		}
		if c.other[name] {
			return nil
		}
	}
	return nil
}

// exprs visits every expression of the scope's statements, outermost
// first; lambda bodies are scopes of their own.
func (sc *scopeView) exprs(f func(*ir.Expr)) {
	ir.WalkStmts(sc.body, func(st *ir.Stmt) {
		for _, e := range st.Targets {
			walkExpr(e, f)
		}
		walkExpr(st.Value, f)
		walkExpr(st.Cond, f)
		for _, it := range st.Items {
			walkExpr(it.Ctx, f)
		}
		if st.Def != nil {
			for _, d := range st.Def.Decorators {
				walkExpr(d, f)
			}
			for _, p := range st.Def.Params {
				walkExpr(p.Default, f)
			}
		}
		if st.Class != nil {
			for _, d := range append(append([]*ir.Expr{}, st.Class.Decorators...), st.Class.Bases...) {
				walkExpr(d, f)
			}
		}
	})
}

func walkExpr(e *ir.Expr, f func(*ir.Expr)) {
	if e == nil {
		return
	}
	f(e)
	if e.Kind == ir.ExLambda {
		return
	}
	walkExpr(e.X, f)
	for _, a := range e.Args {
		walkExpr(a, f)
	}
	for _, kw := range e.Kw() {
		walkExpr(kw.Key, f)
		walkExpr(kw.Value, f)
	}
}
