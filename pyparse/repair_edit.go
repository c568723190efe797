package pyparse

import "sort"

// The two edits of the flat array that repair.go makes. Both keep the
// array a valid preorder (children inside parents, starts never
// decreasing, next past each subtree), which DecodeTree checks.

// rotateSplats fixes the star-expressions the grammar binds too tightly.
// Its primary_expression admits `*name` (a list_splat over an identifier,
// attribute or subscript), so in `[*a.b()]`, `(*x.shape, d)` or
// `x[*f(i)]` the star takes only `a`, `x` or `f`, and the call, attribute
// or operator is applied to the starred name: call(attribute(list_splat(a),
// b)). Python stars the whole operand. Each such list_splat L is moved up
// to wrap the operand E it heads, when E is an element of a container that
// can hold a star-expression (a list, tuple, subscript, annotation...):
// list_splat(call(attribute(a, b))). It returns t itself when there is
// nothing to fix, else a new tree (t is never changed: the editor keeps
// it for its next incremental parse).
func rotateSplats(t *Tree) *Tree {
	g := gaps()
	var ls []NodeID
	for i := range t.Nodes {
		if t.Nodes[i].Kind == KindListSplat {
			if e := misbound(t, g, NodeID(i)); e != NoNode {
				ls = append(ls, NodeID(i))
			}
		}
	}
	if len(ls) == 0 {
		return t
	}
	out := &Tree{Src: t.Src, Nodes: append([]Node(nil), t.Nodes...)}
	// From the last: a rotation permutes only its own operand's nodes, so
	// the indices of earlier ones stay valid.
	for k := len(ls) - 1; k >= 0; k-- {
		rotate(out, ls[k], misbound(out, g, ls[k]))
	}
	return out
}

// misbound returns the operand E that the list_splat l heads and should
// wrap, or NoNode: l is the first child of a chain of operand nodes whose
// top, E, is an element of a container. l must be `*`, extras, one operand.
func misbound(t *Tree, g *gapKinds, l NodeID) NodeID {
	n := &t.Nodes[l]
	if n.flags&(flagError|flagMissing) != 0 || n.next <= l+2 || t.Nodes[l+1].Kind != g.star {
		return NoNode
	}
	x := lastChild(t, l)
	for c := l + 2; c < x; c++ {
		if t.Nodes[c].flags&flagExtra == 0 {
			return NoNode
		}
	}
	if x == NoNode || !t.Nodes[x].Named() || t.Nodes[x].flags&flagExtra != 0 {
		return NoNode
	}
	e := l
	for p := t.Nodes[e].Parent; p >= 0 && p+1 == e && g.operand[t.Nodes[p].Kind]; p = t.Nodes[e].Parent {
		e = p
	}
	if e == l || !holdsStar(t, g, e) {
		return NoNode
	}
	return e
}

// holdsStar reports whether n sits where Python allows a star-expression.
func holdsStar(t *Tree, g *gapKinds, n NodeID) bool {
	p := t.Nodes[n].Parent
	if p < 0 || !g.container[t.Nodes[p].Kind] {
		return false
	}
	return t.Nodes[p].Kind != KindSubscript || t.Nodes[n].Field == FieldSubscript
}

// lastChild returns the last child of id, or NoNode.
func lastChild(t *Tree, id NodeID) NodeID {
	last := NoNode
	for c := t.FirstChild(id); c != NoNode; c = t.NextSibling(c) {
		last = c
	}
	return last
}

// rotate moves list_splat l (children `*`, k extras, x) from under the
// operand chain e..l-1 to above it. In preorder the nodes [e, x) become
// l, `*`, the extras, then the chain; nothing else moves.
func rotate(t *Tree, l, e NodeID) {
	nodes := t.Nodes
	x := lastChild(t, l)
	m, k := int(l-e), int(x-l-2)
	seg := append([]Node(nil), nodes[e:x]...)
	newIdx := func(old NodeID) NodeID {
		switch {
		case old >= e && old < l:
			return old + NodeID(2+k)
		case old >= l && old < x:
			return old - l + e
		}
		return old
	}
	top, splat := seg[0], seg[m]
	splat.Parent, splat.Field, splat.End, splat.next = top.Parent, top.Field, top.End, top.next
	nodes[e] = splat
	for j := 0; j <= k; j++ { // the star and the extras: leaves of the splat
		leaf := seg[m+1+j]
		leaf.Parent, leaf.next = e, e+NodeID(j)+2
		nodes[int(e)+1+j] = leaf
	}
	start := nodes[x].Start
	for j := 0; j < m; j++ { // the chain now starts at the operand
		c := seg[j]
		c.Start = start
		if j == 0 {
			c.Parent, c.Field = e, 0
		} else {
			c.Parent = newIdx(c.Parent)
		}
		nodes[int(e)+2+k+j] = c
	}
	nodes[x].Parent, nodes[x].Field = newIdx(l-1), seg[m].Field
	for i := x + 1; i < nodes[e].next; i++ {
		nodes[i].Parent = newIdx(nodes[i].Parent)
	}
}

// wrap is one star-expression whose `*` was blanked for the parse: the
// operand n (with the extras before it, from first) gets a new list_splat
// parent spanning from the star, whose first child is the `*` token.
type wrap struct {
	star     int
	first, n NodeID
	kind     Kind // list_splat, or list_splat_pattern in a target
}

// insertWraps returns t with the wraps' list_splat and `*` nodes inserted.
func insertWraps(t *Tree, ws []wrap) *Tree {
	if len(ws) == 0 {
		return t
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].first < ws[j].first })
	// Node i moves by 2 per wrap inserted at or before it; a subtree end
	// (next) equal to an insertion point stops before the new nodes.
	shift := func(x NodeID, orEqual bool) NodeID {
		return NodeID(2 * sort.Search(len(ws), func(i int) bool {
			return ws[i].first > x || (!orEqual && ws[i].first == x)
		}))
	}
	newIdx := func(i NodeID) NodeID {
		if i < 0 {
			return i
		}
		return i + shift(i, true)
	}
	newNext := func(x NodeID) NodeID { return x + shift(x, false) }
	out := make([]Node, 0, len(t.Nodes)+2*len(ws))
	owner := make(map[NodeID]NodeID) // wrapped node -> its new list_splat
	var splats []NodeID
	w := 0
	for i := range t.Nodes {
		id := NodeID(i)
		for ; w < len(ws) && ws[w].first == id; w++ {
			at := NodeID(len(out))
			splats = append(splats, at)
			out = append(out, ws[w].nodes(t, at, newIdx, newNext)...)
			for c := ws[w].first; c <= ws[w].n; c = t.Nodes[c].next {
				owner[c] = at
			}
		}
		n := t.Nodes[i]
		n.Parent, n.next = newIdx(n.Parent), newNext(n.next)
		if at, ok := owner[id]; ok {
			n.Parent, n.Field = at, 0 // the list_splat took the operand's field
		}
		out = append(out, n)
	}
	// A bare tuple (`x = *a, b`) began at the operand: it, and whatever
	// began with it, now begins at the star.
	for _, at := range splats {
		for a := out[at].Parent; a >= 0 && out[a].Start > out[at].Start; a = out[a].Parent {
			out[a].Start = out[at].Start
		}
	}
	return &Tree{Src: t.Src, Nodes: out}
}

// nodes returns the wrap's list_splat (to sit at index at) and `*`.
func (w *wrap) nodes(t *Tree, at NodeID, newIdx, newNext func(NodeID) NodeID) []Node {
	n := &t.Nodes[w.n]
	return []Node{
		{Start: uint32(w.star), End: n.End, Parent: newIdx(n.Parent), next: newNext(n.next),
			Kind: w.kind, Field: n.Field, flags: flagNamed},
		{Start: uint32(w.star), End: uint32(w.star) + 1, Parent: at, next: at + 2, Kind: gaps().star},
	}
}
