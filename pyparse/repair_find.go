package pyparse

import "sort"

// fixKind is one grammar gap (repair.go).
type fixKind uint8

const (
	fixStar        fixKind = iota // the `*` of a star-expression: blanked, then put back
	fixExceptStar                 // `except *`: the star moved next to the keyword
	fixFormatSpec                 // `{x:=^8}`: the `=` opening a format spec made neutral
	fixTypeDefault                // `[T = int]`: the `=` of a PEP 696 default read as `:`
	fixLoneCR                     // every `\r` not before `\n` made `\n`, as CPython reads it
	fixJoinLine                   // a line break in brackets before a line indented less: a space
)

// fix is one substitution of the source for the repair's parse.
type fix struct {
	kind fixKind
	at   int // the byte substituted; for fixExceptStar, the keyword's start
	arg  int // fixStar: where the operand starts; fixExceptStar: the star
}

// apply substitutes f's bytes in buf (a copy of the source).
func (f fix) apply(buf []byte) {
	switch f.kind {
	case fixStar:
		buf[f.at] = ' '
	case fixExceptStar: // `except  *E` -> `except*  E`: only blanks between
		buf[f.at+len("except")], buf[f.arg] = '*', ' '
	case fixFormatSpec:
		buf[f.at] = '<'
	case fixTypeDefault:
		buf[f.at] = ':'
	case fixJoinLine:
		buf[f.at] = ' '
	case fixLoneCR:
		for i := f.at; i < len(buf); i++ {
			if buf[i] == '\r' && (i+1 == len(buf) || buf[i+1] != '\n') {
				buf[i] = '\n'
			}
		}
	}
}

// holds reports whether f produced, in the tree of the substituted
// source, the shape it was made for; it returns the node finish adjusts,
// and for a star the wrap that puts it back. bad is badBelow(t).
func (f fix) holds(t *Tree, bad []bool) (NodeID, *wrap, bool) {
	g := gaps()
	switch f.kind {
	case fixStar:
		w, ok := starOperand(t, g, bad, f)
		return w.n, &w, ok
	case fixExceptStar: // and what follows begins after the star
		id := leafAt(t, f.at, g.kwExceptStar)
		ok := id != NoNode && t.Kind(t.Nodes[id].Parent) == g.exceptGroup && int(id)+1 < len(t.Nodes) &&
			int(t.Nodes[id+1].Start) > f.arg && !t.Nodes[id+1].Missing()
		return id, nil, ok
	case fixFormatSpec:
		id := nodeAt(t, f.at-1, g.formatSpec)
		if id == NoNode {
			return id, nil, false
		}
		p := t.Kind(t.Nodes[id].Parent)
		return id, nil, p == g.interpolation || p == g.formatExpr
	case fixTypeDefault:
		id := leafAt(t, f.at, g.colon)
		return id, nil, id != NoNode && t.Kind(t.Nodes[id].Parent) == g.constrained
	case fixLoneCR, fixJoinLine: // a line break has no node: the error count decides
		return NoNode, nil, true
	}
	return NoNode, nil, false
}

// findFixes lists the gaps t shows.
func findFixes(t *Tree) []fix {
	g := gaps()
	var out []fix
	for i := range t.Nodes {
		switch t.Nodes[i].Kind {
		case KindListSplat:
			if f, ok := exceptSplat(t, g, NodeID(i)); ok {
				out = append(out, f)
			}
		case KindNamedExpression:
			if f, ok := specWalrus(t, g, NodeID(i)); ok {
				out = append(out, f)
			}
		}
	}
	if cr := loneCR(t.Src); cr >= 0 {
		out = append(out, fix{kind: fixLoneCR, at: cr})
	}
	if t.badNodes() > 0 {
		out = append(out, errorFixes(t, g)...)
	}
	return out
}

// exceptSplat: `except *E:` alone parses as an except clause whose value
// is list_splat(E); it is an except* clause.
func exceptSplat(t *Tree, g *gapKinds, l NodeID) (fix, bool) {
	n := &t.Nodes[l]
	p := n.Parent
	if p < 0 || t.Nodes[p].Kind != g.exceptClause || n.Field != FieldValue || t.Kind(l+1) != g.star {
		return fix{}, false
	}
	kw := p + 1
	if t.Kind(kw) != g.kwExcept {
		return fix{}, false
	}
	return exceptStar(t, kw, l+1)
}

// exceptStar is the fix for keyword kw followed by star s, when only
// blanks separate them.
func exceptStar(t *Tree, kw, s NodeID) (fix, bool) {
	from, to := int(t.Nodes[kw].End), int(t.Nodes[s].Start)
	if to <= from || t.Nodes[kw].End-t.Nodes[kw].Start != uint32(len("except")) {
		return fix{}, false
	}
	for _, c := range t.Src[from:to] {
		if c != ' ' && c != '\t' {
			return fix{}, false
		}
	}
	return fix{kind: fixExceptStar, at: int(t.Nodes[kw].Start), arg: to}, true
}

// specWalrus: in an f-string replacement field, `:` at the top level
// always starts the format spec (an assignment expression there must be
// parenthesized), so `{x:=^8}` is x with spec `=^8`, not `x := ...`.
func specWalrus(t *Tree, g *gapKinds, w NodeID) (fix, bool) {
	n := &t.Nodes[w]
	if p := t.Kind(n.Parent); (p != g.interpolation && p != g.formatExpr) || n.Field != FieldOf("expression") {
		return fix{}, false
	}
	for c := t.FirstChild(w); c != NoNode; c = t.NextSibling(c) {
		if t.Nodes[c].Kind == g.walrus && t.Nodes[c].End == t.Nodes[c].Start+2 {
			return fix{kind: fixFormatSpec, at: int(t.Nodes[c].Start) + 1}, true
		}
	}
	return fix{}, false
}

// starOperand finds, in the tree parsed with star f blanked, the operand
// the star applies to, and checks that it is an element of a container
// that can hold a star-expression, right after an opening bracket or a
// comma (or first, in a bare tuple).
func starOperand(t *Tree, g *gapKinds, bad []bool, f fix) (wrap, bool) {
	n := outermostAt(t, f.arg)
	// A bare tuple (expression_list, pattern_list) starts with its first
	// element; an annotation's `type` node holds the expression.
	for n != NoNode && (t.Kind(n) == KindExpressionList || t.Kind(n) == KindPatternList || t.Kind(n) == g.typ) &&
		int(t.Nodes[n].Start) == f.arg && n+1 < t.Nodes[n].next && int(t.Nodes[n+1].Start) == f.arg && t.Nodes[n+1].Named() {
		n++
	}
	if n == NoNode || !t.Nodes[n].Named() || t.Nodes[n].flags&flagExtra != 0 || bad != nil && bad[n] || !holdsStar(t, g, n) {
		return wrap{}, false
	}
	p := t.Nodes[n].Parent
	// The list_splat starts at the star, so it takes in the extras
	// (comments, line continuations) between the star and the operand.
	first, prev := n, prevSibling(t, n)
	for ; prev != NoNode && t.Nodes[prev].flags&flagExtra != 0; prev = prevSibling(t, prev) {
		if int(t.Nodes[prev].Start) > f.at {
			first = prev
		}
	}
	if prev != NoNode && !startsElement(g, t.Kind(prev)) {
		return wrap{}, false
	}
	kind := KindListSplat
	if g.pattern[t.Kind(p)] {
		kind = KindListSplatPattern
	}
	return wrap{star: f.at, first: first, n: n, kind: kind}, true
}

// prevSibling returns the sibling before n, or NoNode: the node before n
// in preorder ends the previous sibling's subtree.
func prevSibling(t *Tree, n NodeID) NodeID {
	p, c := t.Nodes[n].Parent, n-1
	if p < 0 || c == p {
		return NoNode
	}
	for t.Nodes[c].Parent != p {
		c = t.Nodes[c].Parent
	}
	return c
}

func startsElement(g *gapKinds, k Kind) bool {
	return k == g.lbracket || k == g.lparen || k == g.lbrace || k == g.comma
}

// outermostAt returns the first node in preorder (the outermost) that
// starts at off and is not empty, or NoNode. Preorder starts never
// decrease.
func outermostAt(t *Tree, off int) NodeID {
	i := sort.Search(len(t.Nodes), func(i int) bool { return int(t.Nodes[i].Start) >= off })
	for ; i < len(t.Nodes) && int(t.Nodes[i].Start) == off; i++ {
		if t.Nodes[i].End > t.Nodes[i].Start {
			return NodeID(i)
		}
	}
	return NoNode
}

// nodeAt returns the first node of kind k that starts at off, or NoNode.
func nodeAt(t *Tree, off int, k Kind) NodeID {
	i := sort.Search(len(t.Nodes), func(i int) bool { return int(t.Nodes[i].Start) >= off })
	for ; i < len(t.Nodes) && int(t.Nodes[i].Start) == off; i++ {
		if t.Nodes[i].Kind == k {
			return NodeID(i)
		}
	}
	return NoNode
}

// leafAt is nodeAt for a leaf.
func leafAt(t *Tree, off int, k Kind) NodeID {
	id := nodeAt(t, off, k)
	if id != NoNode && t.Nodes[id].next != id+1 {
		return NoNode
	}
	return id
}
