package pyparse

import "bytes"

// errorFixes reads the leaves of a tree with syntax errors for stars,
// `except *` and type-parameter defaults the grammar could not place.
func errorFixes(t *Tree, g *gapKinds) []fix {
	leaves, bad, above := codeLeaves(t), badBelow(t), aboveOf(t, g)
	out := joinLines(t, g)
	for j, id := range leaves {
		n := &t.Nodes[id]
		var next NodeID = NoNode
		if j+1 < len(leaves) {
			next = leaves[j+1]
		}
		switch {
		case n.Kind == g.star && j > 0 && next != NoNode && opensStar(g, t.Kind(leaves[j-1])) &&
			startsOperand(t, g, next) && strayStar(t, bad, above, id):
			out = append(out, fix{kind: fixStar, at: int(n.Start), arg: int(t.Nodes[next].Start)})
		case next != NoNode && t.Kind(next) == g.star && isExcept(t, g, id):
			if f, ok := exceptStar(t, id, next); ok {
				out = append(out, f)
			}
		case n.Kind == g.eq && typeDefault(t, g, id):
			out = append(out, fix{kind: fixTypeDefault, at: int(n.Start)})
		}
	}
	return out
}

// loneCR returns the offset of the first `\r` not followed by `\n`, or
// -1. CPython reads one as a line break (old Mac line endings); the
// grammar's scanner does not always, and a comment runs on to the next
// `\n`, over any lone `\r`: a file of such lines that begins with a
// comment is one comment, with no syntax error.
func loneCR(src []byte) int {
	for i := 0; i < len(src); i++ {
		j := bytes.IndexByte(src[i:], '\r')
		if j < 0 {
			return -1
		}
		if i += j; i+1 == len(src) || src[i+1] != '\n' {
			return i
		}
	}
	return -1
}

// isExcept: the keyword, or (in error recovery) an identifier spelt so.
func isExcept(t *Tree, g *gapKinds, id NodeID) bool {
	n := &t.Nodes[id]
	return n.Kind == g.kwExcept || (n.Kind == KindIdentifier && string(t.Src[n.Start:n.End]) == "except")
}

// codeLeaves lists the leaves that are tokens of the source, in order:
// no extras (comments, line continuations) and no MISSING tokens.
func codeLeaves(t *Tree) []NodeID {
	var out []NodeID
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.next == NodeID(i)+1 && n.flags&(flagExtra|flagMissing) == 0 && n.End > n.Start {
			out = append(out, NodeID(i))
		}
	}
	return out
}

// opensStar: tokens after which a `*` can only start a star-expression.
func opensStar(g *gapKinds, k Kind) bool {
	switch k {
	case g.lbracket, g.lparen, g.lbrace, g.comma, g.eq, g.kwReturn, g.kwYield, g.kwIn:
		return true
	}
	return false
}

// startsOperand: a token that can begin the operand of a star.
func startsOperand(t *Tree, g *gapKinds, id NodeID) bool {
	switch t.Kind(id) {
	case g.rbracket, g.rparen, g.rbrace, g.comma, g.colon, g.eq, g.star:
		return false
	}
	return true
}

// strayStar: star s is misplaced in the tree (in or under an ERROR, or
// its list_splat, or the container of that, holds one), and not in a
// parameter list, where `*` is not a star-expression. bad is badBelow(t),
// above is aboveOf(t).
func strayStar(t *Tree, bad []bool, above []uint8, s NodeID) bool {
	p := t.Nodes[s].Parent
	if p < 0 || above[p]&inParams != 0 {
		return false
	}
	return above[p]&inError != 0 || t.Kind(p) == KindListSplat && (bad[p] || t.Nodes[p].Parent >= 0 && bad[t.Nodes[p].Parent])
}

const (
	inError  = 1 // the node or an ancestor is an ERROR
	inParams = 2 // the node or an ancestor is a parameter list
)

// aboveOf sums up each node's ancestors (inError, inParams) in one pass:
// a parent always comes before its children.
func aboveOf(t *Tree, g *gapKinds) []uint8 {
	above := make([]uint8, len(t.Nodes))
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Parent >= 0 {
			above[i] = above[n.Parent]
		}
		if n.IsError() {
			above[i] |= inError
		}
		if k := n.Kind; k == KindParameters || k == g.lambdaParams || k == g.typeParam {
			above[i] |= inParams
		}
	}
	return above
}

// badBelow reports, for each node, whether its subtree holds an ERROR or
// MISSING node; nil when the tree has none. One pass, from the last node:
// a parent always comes before its children.
func badBelow(t *Tree) []bool {
	if t.badNodes() == 0 {
		return nil
	}
	bad := make([]bool, len(t.Nodes))
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := &t.Nodes[i]
		if n.flags&(flagError|flagMissing) != 0 {
			bad[i] = true
		}
		if bad[i] && n.Parent >= 0 {
			bad[n.Parent] = true
		}
	}
	return bad
}

// typeDefault: an `=` the grammar could not place (its parent is an ERROR)
// inside type parameters, outside any bracket or call there, is a PEP 696
// default: `[T = int]`, `[T: int = bool]`, `[*Ts = *Ts2]`.
func typeDefault(t *Tree, g *gapKinds, eq NodeID) bool {
	if !t.Nodes[t.Nodes[eq].Parent].IsError() {
		return false
	}
	for a := t.Nodes[eq].Parent; a >= 0; a = t.Nodes[a].Parent {
		switch t.Nodes[a].Kind {
		case g.typeParam:
			return true
		case KindArgumentList, KindLambda, KindDictionary, KindParenthesized, KindList, KindTuple, KindSet, KindSubscript:
			return false
		}
	}
	return false
}
