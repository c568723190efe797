package pyparse

import (
	"fmt"
	"reflect"
	"strings"
)

// checkTree verifies what every consumer of a Tree relies on, and what the
// repair's edits of the flat array must keep: a preorder whose next and
// parent links agree, children inside their parents and after their
// earlier siblings, starts that never decrease (the editor's reuse
// searches them), a list_splat that starts with its `*`, and a binary
// form that decodes to the same nodes.
func checkTree(t *Tree) error {
	ns := t.Nodes
	if len(ns) == 0 || ns[0].Parent != NoNode || int(ns[0].next) != len(ns) {
		return fmt.Errorf("bad root")
	}
	stack := []NodeID{0}
	for i := 1; i < len(ns); i++ {
		n := &ns[i]
		for len(stack) > 0 && int(ns[stack[len(stack)-1]].next) <= i {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 || n.Parent != stack[len(stack)-1] {
			return fmt.Errorf("node %d (%s): parent %d, but preorder says %v", i, n.Kind, n.Parent, stack)
		}
		p := &ns[n.Parent]
		switch {
		case int(n.next) <= i || n.next > p.next:
			return fmt.Errorf("node %d (%s): next %d outside (%d, %d]", i, n.Kind, n.next, i, p.next)
		case n.Start > n.End || n.Start < p.Start || n.End > p.End || int(n.End) > len(t.Src):
			return fmt.Errorf("node %d (%s) %d-%d outside its parent %s %d-%d", i, n.Kind, n.Start, n.End, p.Kind, p.Start, p.End)
		case n.Start < ns[i-1].Start:
			return fmt.Errorf("node %d (%s) starts at %d, before node %d at %d", i, n.Kind, n.Start, i-1, ns[i-1].Start)
		}
		if prev := prevSibling(t, NodeID(i)); prev != NoNode && ns[prev].End > n.Start {
			return fmt.Errorf("node %d (%s) overlaps its previous sibling", i, n.Kind)
		}
		if n.Kind == KindListSplat && (i+1 >= len(ns) || ns[i+1].Parent != NodeID(i) || ns[i+1].Start != n.Start || t.Text(NodeID(i+1)) != "*") {
			return fmt.Errorf("list_splat %d-%d does not start with its star", n.Start, n.End)
		}
		stack = append(stack, NodeID(i))
	}
	back, err := DecodeTree(t.Src, t.AppendBinary(nil))
	if err != nil {
		return fmt.Errorf("binary form: %v", err)
	}
	if !reflect.DeepEqual(back.Nodes, t.Nodes) {
		return fmt.Errorf("binary form decodes to other nodes")
	}
	return nil
}

// shape renders the named subtree at id with fields and byte spans:
// `subscript@0-9(value:identifier@0-1 subscript:list_splat@2-8(...))`.
// Anonymous tokens are left out, except a list_splat's `*`, shown as `*`.
func shape(t *Tree, id NodeID) string {
	var b strings.Builder
	var walk func(NodeID)
	walk = func(id NodeID) {
		n := t.N(id)
		if f := n.Field; f != 0 {
			b.WriteString(f.String() + ":")
		}
		fmt.Fprintf(&b, "%s@%d-%d", n.Kind, n.Start, n.End)
		var kids []NodeID
		for c := t.FirstChild(id); c != NoNode; c = t.NextSibling(c) {
			if t.N(c).Named() && t.N(c).Kind != KindComment {
				kids = append(kids, c)
			}
		}
		if len(kids) == 0 {
			return
		}
		b.WriteString("(")
		for i, c := range kids {
			if i > 0 {
				b.WriteString(" ")
			}
			walk(c)
		}
		b.WriteString(")")
	}
	walk(id)
	return b.String()
}

// firstOf returns the first node of kind name (named) in preorder.
func firstOf(t *Tree, name string) NodeID {
	for i := range t.Nodes {
		if n := &t.Nodes[i]; n.Named() && n.Kind.String() == name {
			return NodeID(i)
		}
	}
	return NoNode
}
