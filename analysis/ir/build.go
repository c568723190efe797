package ir

import (
	"strconv"
	"strings"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// maxDepth bounds expression and statement nesting the builder follows;
// deeper code becomes ExOther/StOther, so hostile nesting cannot exhaust the
// stack and nothing that deep is a real kernel call chain.
const maxDepth = 200

// builder converts one pyparse.Tree into IR.
type builder struct {
	t     *pp.Tree
	sum   *Summary
	depth int
	quals []string // enclosing def/class names for Qual
	// calls counts calls, lambdas and walruses built so far, so a subtree
	// without any can be dropped (see expr).
	calls int
	// names interns identifiers, operators and keyword names: a file
	// repeats a few hundred of them thousands of times.
	names map[string]string
	// consts shares the side structs of the file's literals by value
	// (setConst).
	consts map[Const]*exprMore
}

// setConst gives a new literal e its value: one side struct per value
// and file (the common ones are shared by every file: ir.go).
func (b *builder) setConst(e *Expr, c Const) {
	if m := sharedConst(c); m != nil {
		e.more = m
		return
	}
	if m, ok := b.consts[c]; ok {
		e.more = m
		return
	}
	if b.consts == nil {
		b.consts = map[Const]*exprMore{}
	}
	m := &exprMore{c: c}
	b.consts[c] = m
	e.more = m
}

func (b *builder) span(id pp.NodeID) pp.Span { return b.t.Span(id) }

// name is the text of a short token (an identifier, an operator), interned.
func (b *builder) name(id pp.NodeID) string {
	if id < 0 {
		return ""
	}
	if b.t.SubtreeEnd(id) != id+1 {
		return b.t.LeafText(id) // not a token (error recovery): its tokens only
	}
	n := &b.t.Nodes[id]
	raw := b.t.Src[n.Start:n.End]
	if s, ok := b.names[string(raw)]; ok { // no allocation for the lookup
		return s
	}
	if b.names == nil {
		b.names = map[string]string{}
	}
	s := string(raw)
	b.names[s] = s
	return s
}

func (b *builder) block(id pp.NodeID) []*Stmt {
	if id == pp.NoNode {
		return nil
	}
	var out []*Stmt
	for _, c := range b.t.NamedChildren(id) {
		if s := b.stmt(c); s != nil {
			out = append(out, s)
		}
	}
	return out
}

func (b *builder) stmt(id pp.NodeID) *Stmt {
	if b.depth > maxDepth {
		return &Stmt{Kind: StOther, Span: b.span(id)}
	}
	b.depth++
	defer func() { b.depth-- }()
	t := b.t
	s := &Stmt{Span: b.span(id)}
	switch k := t.Kind(id); k {
	case pp.KindExpressionStatement:
		return b.exprStmt(id)
	case pp.KindReturn:
		s.Kind = StReturn
		if c := t.NamedChildren(id); len(c) > 0 {
			s.Value = b.exprList(c)
		}
	case pp.KindIf, pp.KindElif:
		s.Kind = StIf
		s.Cond = b.expr(t.ChildByField(id, pp.FieldCondition))
		s.Body = b.block(t.ChildByField(id, pp.FieldConsequence))
		s.Else = b.elseChain(id)
	case pp.KindFor, pp.KindWhile:
		s.Kind = StLoop
		if k == pp.KindFor {
			s.Targets = []*Expr{b.expr(t.ChildByField(id, pp.FieldLeft))}
			s.Value = b.expr(t.ChildByField(id, pp.FieldRight))
		} else {
			s.Value = b.expr(t.ChildByField(id, pp.FieldCondition))
		}
		s.Body = b.block(t.ChildByField(id, pp.FieldBody))
		if e := t.ChildByField(id, pp.FieldAlternative); e != pp.NoNode {
			s.Else = b.block(t.ChildByField(e, pp.FieldBody))
		}
	case pp.KindWith:
		s.Kind = StWith
		b.withItems(id, s)
		s.Body = b.block(t.ChildByField(id, pp.FieldBody))
	case pp.KindTry:
		b.try(id, s)
	case pp.KindFunctionDef:
		s.Kind, s.Def = StDef, b.funcDef(id, nil)
	case pp.KindClassDef:
		s.Kind, s.Class = StClass, b.classDef(id, nil)
	case pp.KindDecoratedDef:
		return b.decorated(id)
	case pp.KindImport, pp.KindImportFrom:
		s.Kind, s.Import = StImport, b.importStmt(id)
	case pp.KindMatch:
		return b.match(id)
	default:
		b.otherStmt(id, s)
	}
	return s
}

// otherStmt builds the simple statements that hold expressions or bind
// names: assert and del run their expressions (an assert's calls run, as
// in pytest), raise runs its exception and ends the block, global and
// nonlocal say where names bind. The rest (pass, break, ...) is StOther.
func (b *builder) otherStmt(id pp.NodeID, s *Stmt) {
	t := b.t
	c := t.NamedChildren(id)
	s.Kind = StOther
	switch t.Kind(id).String() {
	case "assert_statement", "delete_statement":
		if len(c) > 0 {
			s.Kind, s.Value = StExpr, b.exprList(c)
		}
	case "raise_statement":
		s.Kind = StRaise
		if len(c) > 0 {
			s.Value = b.exprList(c)
		}
	case "global_statement", "nonlocal_statement":
		s.Kind = StGlobal
		if t.Kind(id).String() == "nonlocal_statement" {
			s.Kind = StNonlocal
		}
		for _, n := range c {
			if t.Kind(n) == pp.KindIdentifier {
				s.Targets = append(s.Targets, &Expr{Kind: ExName, Span: b.span(n), Name: b.name(n)})
			}
		}
	}
}

// elseChain builds the else part of an if: tree-sitter gives the elif and
// else clauses as siblings (field alternative), so each elif becomes an
// if whose else is the rest of the chain.
func (b *builder) elseChain(id pp.NodeID) []*Stmt { return b.chainFrom(b.t.FirstChild(id)) }

func (b *builder) chainFrom(c pp.NodeID) []*Stmt {
	t := b.t
	for ; c != pp.NoNode; c = t.NextSibling(c) {
		if t.N(c).Field != pp.FieldAlternative {
			continue
		}
		if t.Kind(c) == pp.KindElif {
			s := &Stmt{Kind: StIf, Span: b.span(c)}
			s.Cond = b.expr(t.ChildByField(c, pp.FieldCondition))
			s.Body = b.block(t.ChildByField(c, pp.FieldConsequence))
			s.Else = b.chainFrom(t.NextSibling(c))
			return []*Stmt{s}
		}
		return b.block(t.ChildByField(c, pp.FieldBody))
	}
	return nil
}

func (b *builder) try(id pp.NodeID, s *Stmt) {
	t := b.t
	s.Kind = StTry
	s.Body = b.block(t.ChildByField(id, pp.FieldBody))
	for _, c := range t.NamedChildren(id) {
		switch t.Kind(c).String() {
		case "except_clause", "except_group_clause":
			s.Else = append(s.Else, &Stmt{Kind: StHandler, Span: t.Span(c), Body: b.block(t.ChildOfKind(c, pp.KindBlock))})
		case "else_clause":
			s.Else = append(s.Else, b.block(t.ChildOfKind(c, pp.KindBlock))...)
		case "finally_clause":
			s.Finally = b.block(t.ChildOfKind(c, pp.KindBlock))
		}
	}
}

func (b *builder) withItems(id pp.NodeID, s *Stmt) {
	t := b.t
	for c := t.FirstChild(id); c != pp.NoNode; c = t.NextSibling(c) {
		if t.Kind(c).String() != "with_clause" {
			continue
		}
		for _, it := range t.NamedChildren(c) {
			if t.Kind(it) != pp.KindWithItem {
				continue
			}
			v := t.ChildByField(it, pp.FieldValue)
			item := WithItem{}
			if t.Kind(v) == pp.KindAsPattern {
				nc := t.NamedChildren(v)
				if len(nc) > 0 {
					item.Ctx = b.expr(nc[0])
				}
				if tg := t.ChildByField(v, pp.FieldAlias); tg != pp.NoNode {
					item.Target = b.expr(firstNamed(t, tg))
				}
			} else {
				item.Ctx = b.expr(v)
			}
			s.Items = append(s.Items, item)
		}
	}
}

func firstNamed(t *pp.Tree, id pp.NodeID) pp.NodeID {
	if t.Kind(id).String() == "as_pattern_target" {
		if c := t.NamedChildren(id); len(c) > 0 {
			return c[0]
		}
	}
	return id
}

func (b *builder) exprStmt(id pp.NodeID) *Stmt {
	t := b.t
	c := t.NamedChildren(id)
	if len(c) == 0 {
		return nil
	}
	switch t.Kind(c[0]) {
	case pp.KindAssignment:
		return b.assign(c[0], &Stmt{Kind: StAssign, Span: b.span(id)})
	case pp.KindAugAssignment:
		return &Stmt{Kind: StAssign, Aug: true, Span: b.span(id),
			Targets: []*Expr{b.expr(t.ChildByField(c[0], pp.FieldLeft))},
			Value:   b.expr(t.ChildByField(c[0], pp.FieldRight))}
	}
	return &Stmt{Kind: StExpr, Span: b.span(id), Value: b.exprList(c)}
}

// assign flattens `a = b = value` into one statement with two targets.
func (b *builder) assign(id pp.NodeID, s *Stmt) *Stmt {
	t := b.t
	s.Targets = append(s.Targets, b.expr(t.ChildByField(id, pp.FieldLeft)))
	r := t.ChildByField(id, pp.FieldRight)
	if r == pp.NoNode { // annotation only: `x: int` (a dataclass field, say)
		s.Kind = StOther
		return s
	}
	if t.Kind(r) == pp.KindAssignment {
		return b.assign(r, s)
	}
	s.Value = b.expr(r)
	return s
}

func (b *builder) exprList(ids []pp.NodeID) *Expr {
	if len(ids) == 1 {
		return b.expr(ids[0])
	}
	e := &Expr{Kind: ExTuple, Span: pp.Span{Start: b.span(ids[0]).Start, End: b.span(ids[len(ids)-1]).End}}
	for _, c := range ids {
		e.Args = append(e.Args, b.expr(c))
	}
	return e
}

func (b *builder) strConst(id pp.NodeID) (string, bool) {
	t := b.t
	var sb strings.Builder
	for c := t.FirstChild(id); c != pp.NoNode; c = t.NextSibling(c) {
		switch t.Kind(c).String() {
		case "string_start":
			p := strings.ToLower(t.Text(c))
			if strings.ContainsAny(p, "fb") {
				return "", false
			}
		case "string_content":
			sb.WriteString(t.Text(c))
		case "escape_sequence":
			if u, err := strconv.Unquote(`"` + t.Text(c) + `"`); err == nil {
				sb.WriteString(u)
			} else {
				sb.WriteString(t.Text(c))
			}
		case "interpolation":
			return "", false
		}
	}
	return sb.String(), true
}

// match turns `match x: case ...:` into a chain of ifs whose conditions
// are opaque: any case may run, as far as the analysis knows.
func (b *builder) match(id pp.NodeID) *Stmt {
	t := b.t
	var cases []pp.NodeID
	var walk func(pp.NodeID)
	walk = func(n pp.NodeID) {
		for _, c := range t.NamedChildren(n) {
			switch t.Kind(c).String() {
			case "case_clause":
				cases = append(cases, c)
			case "block":
				walk(c)
			}
		}
	}
	walk(id)
	subject := b.expr(t.ChildByField(id, fieldSubject()))
	var chain []*Stmt
	for i := len(cases) - 1; i >= 0; i-- {
		c := cases[i]
		body := b.block(t.ChildByField(c, pp.FieldConsequence))
		cond := &Expr{Kind: ExOther, Span: b.span(c)}
		if i == 0 {
			// The subject is evaluated once, before the first case: one
			// node, so that the IR stays a tree (trivia.go relies on it).
			cond.Args = []*Expr{subject}
		}
		chain = []*Stmt{{Kind: StIf, Span: b.span(c), Cond: cond, Body: body, Else: chain}}
	}
	if len(chain) == 0 {
		return &Stmt{Kind: StOther, Span: b.span(id)}
	}
	return chain[0]
}

// fieldSubject is the match statement's subject field.
func fieldSubject() pp.Field { return pp.FieldOf("subject") }
