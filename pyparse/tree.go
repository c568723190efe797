package pyparse

// NodeID indexes Tree.Nodes; the root is 0 and NoNode means "absent".
type NodeID int32

// NoNode is the absent node.
const NoNode NodeID = -1

// Node is one syntax node, flattened in preorder. Children of n are the
// nodes from n+1 up to n.next, hopping from one child's next to the next.
type Node struct {
	Start, End uint32
	Parent     NodeID
	next       NodeID
	Kind       Kind
	Field      Field // the field by which the parent refers to this node
	flags      uint8
}

const (
	flagNamed   = 1
	flagMissing = 2
	flagError   = 4
	flagExtra   = 8
)

// Named reports whether the node is a named grammar node (not punctuation).
func (n *Node) Named() bool { return n.flags&flagNamed != 0 }

// Missing reports a zero-width node the parser inserted to recover.
func (n *Node) Missing() bool { return n.flags&flagMissing != 0 }

// IsError reports an ERROR node: source the parser could not fit.
func (n *Node) IsError() bool { return n.flags&flagError != 0 }

// Span is the node's byte range.
func (n *Node) Span() Span { return Span{int(n.Start), int(n.End)} }

// Tree is a parsed file: its source and its nodes. It holds no C memory,
// so it can be kept, shared and dropped like any Go value.
type Tree struct {
	Src   []byte
	Nodes []Node
}

// Root is the module node.
func (t *Tree) Root() NodeID { return 0 }

// N returns the node for id; id must be valid.
func (t *Tree) N(id NodeID) *Node { return &t.Nodes[id] }

// Kind is the kind of id, or 0 for NoNode.
func (t *Tree) Kind(id NodeID) Kind {
	if id < 0 {
		return 0
	}
	return t.Nodes[id].Kind
}

// Text is the source text of id ("" for NoNode).
func (t *Tree) Text(id NodeID) string {
	if id < 0 {
		return ""
	}
	n := &t.Nodes[id]
	return string(t.Src[n.Start:n.End])
}

// Span is the byte span of id.
func (t *Tree) Span(id NodeID) Span { return t.Nodes[id].Span() }

// FirstChild returns the first child of id (named or not), or NoNode.
func (t *Tree) FirstChild(id NodeID) NodeID {
	if id < 0 || int(id)+1 >= len(t.Nodes) || t.Nodes[id].next == id+1 {
		return NoNode
	}
	return id + 1
}

// NextSibling returns the sibling after id, or NoNode.
func (t *Tree) NextSibling(id NodeID) NodeID {
	if id <= 0 {
		return NoNode
	}
	nx := t.Nodes[id].next
	if p := t.Nodes[id].Parent; p < 0 || nx >= t.Nodes[p].next {
		return NoNode
	}
	return nx
}

// Children returns the children of id, named and anonymous.
func (t *Tree) Children(id NodeID) []NodeID {
	var out []NodeID
	for c := t.FirstChild(id); c != NoNode; c = t.NextSibling(c) {
		out = append(out, c)
	}
	return out
}

// LeafText is the text of id's leaves, concatenated, without the extras
// (comments, line continuations) and the space between them: "a.b" for
// the dotted name `a .\` + newline + `b`. Unlike Text, it does not change
// when only comments and spacing do (TriviaEdit).
func (t *Tree) LeafText(id NodeID) string {
	if id < 0 || int(id) >= len(t.Nodes) {
		return ""
	}
	end := t.Nodes[id].next
	if end == id+1 {
		return t.Text(id)
	}
	var b []byte
	for i := id; i < end; {
		n := &t.Nodes[i]
		switch {
		case n.flags&flagExtra != 0:
			i = n.next
			continue
		case n.next == i+1:
			b = append(b, t.Src[n.Start:n.End]...)
		}
		i++
	}
	return string(b)
}

// NamedChildren returns the named children of id, comments excluded.
func (t *Tree) NamedChildren(id NodeID) []NodeID {
	var out []NodeID
	for c := t.FirstChild(id); c != NoNode; c = t.NextSibling(c) {
		if n := &t.Nodes[c]; n.Named() && n.Kind != KindComment {
			out = append(out, c)
		}
	}
	return out
}

// ChildByField returns the first child of id attached by field f.
func (t *Tree) ChildByField(id NodeID, f Field) NodeID {
	for c := t.FirstChild(id); c != NoNode; c = t.NextSibling(c) {
		if t.Nodes[c].Field == f {
			return c
		}
	}
	return NoNode
}

// ChildOfKind returns the first child of id of kind k.
func (t *Tree) ChildOfKind(id NodeID, k Kind) NodeID {
	for c := t.FirstChild(id); c != NoNode; c = t.NextSibling(c) {
		if t.Nodes[c].Kind == k {
			return c
		}
	}
	return NoNode
}

// SubtreeEnd returns the index just past id's subtree: nodes id+1 up to it
// are id's descendants, in preorder.
func (t *Tree) SubtreeEnd(id NodeID) NodeID { return t.Nodes[id].next }

// Ancestor returns the nearest proper ancestor of id whose kind is one of
// kinds, or NoNode.
func (t *Tree) Ancestor(id NodeID, kinds ...Kind) NodeID {
	for p := t.Nodes[id].Parent; p >= 0; p = t.Nodes[p].Parent {
		for _, k := range kinds {
			if t.Nodes[p].Kind == k {
				return p
			}
		}
	}
	return NoNode
}

// NodeAt returns the smallest named node that contains byte offset off.
func (t *Tree) NodeAt(off int) NodeID {
	best := NoNode
	for id := NodeID(0); id != NoNode && int(id) < len(t.Nodes); {
		n := &t.Nodes[id]
		if int(n.Start) <= off && off < int(n.End) || (off == int(n.End) && n.Start == n.End) {
			if n.Named() {
				best = id
			}
			id = t.FirstChild(id)
			continue
		}
		if nx := t.NextSibling(id); nx != NoNode {
			id = nx
			continue
		}
		break
	}
	return best
}
