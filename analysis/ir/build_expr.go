package ir

import (
	"strconv"
	"strings"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

func (b *builder) expr(id pp.NodeID) *Expr {
	if id == pp.NoNode {
		return &Expr{Kind: ExOther}
	}
	e := &Expr{Span: b.span(id)}
	if b.depth > maxDepth {
		return e
	}
	b.depth++
	defer func() { b.depth-- }()
	t := b.t
	switch k := t.Kind(id); k {
	case pp.KindIdentifier:
		e.Kind, e.Name = ExName, b.name(id)
	case pp.KindAttribute:
		e.Kind = ExAttr
		e.X = b.expr(t.ChildByField(id, pp.FieldObject))
		e.Name = b.name(t.ChildByField(id, pp.FieldAttribute))
	case pp.KindCall:
		b.call(id, e)
	case pp.KindString, pp.KindConcatenatedString:
		if s, ok := b.strConst(id); ok && k == pp.KindString {
			e.Kind = ExConst
			b.setConst(e, Const{Kind: ConstStr, S: s})
		}
	case pp.KindInteger:
		txt := strings.ReplaceAll(t.LeafText(id), "_", "")
		if n, err := strconv.ParseInt(txt, 0, 64); err == nil {
			e.Kind = ExConst
			b.setConst(e, Const{Kind: ConstInt, I: n})
		}
	case pp.KindFloat:
		e.Kind = ExConst
		b.setConst(e, Const{Kind: ConstFloat})
	case pp.KindTrue, pp.KindFalse:
		e.Kind = ExConst
		b.setConst(e, Const{Kind: ConstBool, B: k == pp.KindTrue})
	case pp.KindNone:
		e.Kind = ExConst
		b.setConst(e, Const{Kind: ConstNone})
	case pp.KindTuple, pp.KindList, pp.KindSet, pp.KindPatternList, pp.KindTuplePattern, pp.KindExpressionList, pp.KindListPattern:
		e.Kind = map[pp.Kind]ExprKind{pp.KindTuple: ExTuple, pp.KindList: ExList, pp.KindSet: ExSet,
			pp.KindPatternList: ExTuple, pp.KindTuplePattern: ExTuple, pp.KindExpressionList: ExTuple,
			pp.KindListPattern: ExList}[k]
		for _, c := range t.NamedChildren(id) {
			e.Args = append(e.Args, b.expr(c))
		}
	case pp.KindDictionary:
		b.dict(id, e)
	case pp.KindParenthesized:
		if c := t.NamedChildren(id); len(c) == 1 {
			return b.expr(c[0])
		}
	case pp.KindLambda:
		b.calls++ // a lambda may be called later: keep what encloses it
		e.Kind = ExLambda
		e.SetLambda(b.lambda(id))
	case pp.KindSubscript:
		e.Kind = ExSubscript
		e.X = b.expr(t.ChildByField(id, pp.FieldValue))
		if s := t.ChildByField(id, pp.FieldSubscript); s != pp.NoNode {
			e.Args = []*Expr{b.expr(s)}
		}
	case pp.KindComparison:
		b.compare(id, e)
	case pp.KindNot:
		e.Kind, e.X = ExNot, b.expr(t.ChildByField(id, pp.FieldArgument))
	case pp.KindBoolean:
		e.Kind = ExBoolOp
		e.Args = []*Expr{b.expr(t.ChildByField(id, pp.FieldLeft)), b.expr(t.ChildByField(id, pp.FieldRight))}
		e.SetOp(b.name(t.ChildByField(id, pp.FieldOperator)))
	case pp.KindBinaryOperator:
		e.Kind = ExBinOp
		// The operands are kept even without calls: the interpreter folds
		// arithmetic on known ints and tuples (block shapes, grids).
		e.Args = []*Expr{b.expr(t.ChildByField(id, pp.FieldLeft)), b.expr(t.ChildByField(id, pp.FieldRight))}
		e.SetOp(b.name(t.ChildByField(id, pp.FieldOperator)))
	case pp.KindConditionalExpr:
		e.Kind = ExCond
		for _, c := range t.NamedChildren(id) {
			e.Args = append(e.Args, b.expr(c))
		}
		if len(e.Args) != 3 {
			e.Kind, e.Args = ExOther, nil
		}
	case pp.KindListSplat, pp.KindListSplatPattern:
		e.Kind = ExStarred
		if c := t.NamedChildren(id); len(c) > 0 {
			e.X = b.expr(c[0])
		}
	case pp.KindNamedExpression:
		b.calls++ // binds a name
		e.Kind = ExOther
		e.X = b.expr(t.ChildByField(id, pp.FieldValue))
		e.Name = b.name(t.ChildByField(id, pp.FieldName))
	case pp.KindKeywordArgument:
		// Only inside argument lists, handled by call.
	default:
		switch k.String() {
		case "slice":
			b.slice(id, e)
			return e
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			b.comprehension(id, e)
			return e
		}
		// Opaque to the analysis, but calls nested anywhere inside (await,
		// unary minus, comprehensions, f-strings) still run: keep them,
		// and nothing else (this is where most of a file's nodes are).
		calls := b.calls
		for _, c := range t.NamedChildren(id) {
			e.Args = append(e.Args, b.expr(c))
		}
		if b.calls == calls {
			e.Args = nil
		}
	}
	return e
}

func (b *builder) call(id pp.NodeID, e *Expr) {
	t := b.t
	b.calls++
	e.Kind = ExCall
	e.X = b.expr(t.ChildByField(id, pp.FieldFunction))
	args := t.ChildByField(id, pp.FieldArguments)
	var kw []Keyword
	defer func() { e.SetKw(kw) }()
	if t.Kind(args) != pp.KindArgumentList { // generator argument: f(x for x in y)
		if args != pp.NoNode {
			e.Args = append(e.Args, b.expr(args))
		}
		return
	}
	for _, a := range t.NamedChildren(args) {
		switch t.Kind(a) {
		case pp.KindKeywordArgument:
			n := t.ChildByField(a, pp.FieldName)
			kw = append(kw, Keyword{Name: b.name(n), NameSpan: b.span(n), Value: b.expr(t.ChildByField(a, pp.FieldValue))})
		case pp.KindDictSplat:
			var v *Expr
			if c := t.NamedChildren(a); len(c) > 0 {
				v = b.expr(c[0])
			}
			kw = append(kw, Keyword{Value: v})
		default:
			e.Args = append(e.Args, b.expr(a))
		}
	}
}

// comprehension builds [elt for t in it if c ...] (and the set, dict and
// generator forms); one without calls or lambdas is only opaque.
func (b *builder) comprehension(id pp.NodeID, e *Expr) {
	t := b.t
	calls := b.calls
	e.Kind = ExComp
	var kw []Keyword
	for _, c := range t.NamedChildren(id) {
		switch t.Kind(c).String() {
		case "for_in_clause":
			kw = append(kw, Keyword{Key: b.expr(t.ChildByField(c, pp.FieldLeft)), Value: b.expr(t.ChildByField(c, pp.FieldRight))})
		case "if_clause":
			if x := t.NamedChildren(c); len(x) > 0 {
				kw = append(kw, Keyword{Value: b.expr(x[0])})
			}
		case "pair":
			e.X = &Expr{Kind: ExTuple, Span: b.span(c), Args: []*Expr{b.expr(t.ChildByField(c, pp.FieldKey)), b.expr(t.ChildByField(c, pp.FieldValue))}}
		case "comment":
		default:
			if e.X == nil {
				e.X = b.expr(c)
			}
		}
	}
	if b.calls == calls || e.X == nil {
		e.Kind, e.X = ExOther, nil
		return
	}
	e.SetKw(kw)
}

// slice builds `start:stop:step`: the bounds in order, a missing one the
// constant None.
func (b *builder) slice(id pp.NodeID, e *Expr) {
	t := b.t
	e.Kind = ExSlice
	bounds := [3]*Expr{}
	i := 0
	for c := t.FirstChild(id); c != pp.NoNode && i < 3; c = t.NextSibling(c) {
		switch {
		case t.LeafText(c) == ":" && !t.N(c).Named():
			i++
		case t.N(c).Named() && t.Kind(c) != pp.KindComment:
			bounds[i] = b.expr(c)
		}
	}
	for _, x := range bounds {
		if x == nil {
			x = &Expr{Kind: ExConst, Span: pp.Span{Start: e.Span.Start, End: e.Span.Start}}
			b.setConst(x, Const{Kind: ConstNone})
		}
		e.Args = append(e.Args, x)
	}
}

func (b *builder) dict(id pp.NodeID, e *Expr) {
	t := b.t
	e.Kind = ExDict
	var kw []Keyword
	for _, c := range t.NamedChildren(id) {
		if t.Kind(c) == pp.KindPair {
			kw = append(kw, Keyword{Key: b.expr(t.ChildByField(c, pp.FieldKey)), Value: b.expr(t.ChildByField(c, pp.FieldValue))})
		} else {
			e.Kind = ExOther // **spread or comprehension: not a literal dict
			return
		}
	}
	e.SetKw(kw)
}

// operator is a comparison operator's text: "is not" and "not in" are one
// node of two tokens, joined by one space whatever separates them (so
// that only the tokens count: trivia.go).
func operator(t *pp.Tree, id pp.NodeID) string {
	var parts []string
	for c := t.FirstChild(id); c != pp.NoNode; c = t.NextSibling(c) {
		if t.Kind(c) != pp.KindComment {
			parts = append(parts, t.LeafText(c))
		}
	}
	if len(parts) == 0 {
		return t.LeafText(id)
	}
	return strings.Join(parts, " ")
}

func (b *builder) compare(id pp.NodeID, e *Expr) {
	t := b.t
	e.Kind = ExCompare
	ops := 0
	var first string
	defer func() { e.SetOp(first) }()
	for c := t.FirstChild(id); c != pp.NoNode; c = t.NextSibling(c) {
		n := t.N(c)
		switch {
		case n.Field == pp.FieldOperators:
			op := operator(t, c)
			// "is not" / "not in" arrive as two tokens.
			switch {
			case ops == len(e.Args) && ops > 0:
				if ops == 1 {
					first += " " + op
				}
			default:
				ops++
				if ops == 1 {
					first = op
				} else {
					first = "" // a chain: not folded
				}
			}
		case n.Named() && n.Kind != pp.KindComment:
			e.Args = append(e.Args, b.expr(c))
		}
	}
}
