package pyparse

// Edit is one replacement in a source: the bytes [Start, OldEnd) of the old
// version became [Start, NewEnd) of the new one; everything before Start
// and from OldEnd on is the same in both.
type Edit struct {
	Start, OldEnd, NewEnd int
}

// Diff returns the edit that turns old into new: their differing middle,
// after the longest common prefix and the longest common suffix.
func Diff(old, new []byte) Edit {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return Edit{Start: p, OldEnd: len(old) - s, NewEnd: len(new) - s}
}

// mapStart maps where a node of the old version starts to where it starts
// in the new one; ok is false when it starts inside the replaced bytes. A
// node starting at an insertion point starts after the inserted text.
func (e Edit) mapStart(x int) (int, bool) {
	switch {
	case x < e.Start:
		return x, true
	case x >= e.OldEnd:
		return x + e.NewEnd - e.OldEnd, true
	}
	return 0, false
}

// mapEnd is mapStart for where a node ends: a node ending at an insertion
// point ends before the inserted text.
func (e Edit) mapEnd(x int) (int, bool) {
	switch {
	case x <= e.Start:
		return x, true
	case x >= e.OldEnd:
		return x + e.NewEnd - e.OldEnd, true
	}
	return 0, false
}

// MapSpan moves a span of the old version to the new one, for an edit that
// TriviaEdit accepted, where every span of a node maps. The zero Span, which
// TriviaEdit guarantees no node has, stays as it is (it marks positions
// that were never set).
func (e Edit) MapSpan(s Span) Span {
	if s == (Span{}) {
		return s
	}
	a, _ := e.mapStart(s.Start)
	b, _ := e.mapEnd(s.End)
	if s.Start == s.End {
		b = a // an empty span stays empty
	}
	return Span{a, b}
}

// overlaps reports whether [s, end) shares a byte with the replaced region
// [rs, re), or, for an insertion (rs == re), whether the insertion point
// lies strictly inside it.
func overlaps(s, end, rs, re int) bool {
	if rs == re {
		return s < rs && rs < end
	}
	return s < re && rs < end
}

// TriviaEdit reports whether new is old after an edit that changed only
// comments and the space between tokens, and returns that edit (Diff of
// their sources). Then every node of new other than a comment is a node of
// old, in the same place in the tree (kind, field, flags, parent), whose
// span is the old span moved by the edit (MapSpan), and every leaf and
// every string lies outside the replaced bytes, so their text is unchanged
// too. Anything computed from a tree's nodes and the text of its leaves
// (LeafText), not from its comments, is therefore the same for both trees,
// apart from positions. It costs one pass over both node arrays.
func TriviaEdit(old, new *Tree) (Edit, bool) {
	e := Diff(old.Src, new.Src)
	if len(old.Nodes) == 0 || len(new.Nodes) == 0 {
		return e, false
	}
	ro, rn := &old.Nodes[0], &new.Nodes[0]
	if ro.Kind != rn.Kind || ro.flags != rn.flags {
		return e, false
	}
	// match maps an old node's index to its counterpart's in new.
	match := make([]NodeID, len(old.Nodes))
	oi, ni := 1, 1 // the roots span the whole file: not compared
	for {
		for oi < len(old.Nodes) && old.Nodes[oi].Kind == KindComment {
			oi++
		}
		for ni < len(new.Nodes) && new.Nodes[ni].Kind == KindComment {
			ni++
		}
		if oi == len(old.Nodes) || ni == len(new.Nodes) {
			return e, oi == len(old.Nodes) && ni == len(new.Nodes)
		}
		o, n := &old.Nodes[oi], &new.Nodes[ni]
		if o.Kind != n.Kind || o.Field != n.Field || o.flags != n.flags || o.Parent < 0 || match[o.Parent] != n.Parent {
			return e, false
		}
		s, ok1 := e.mapStart(int(o.Start))
		end, ok2 := e.mapEnd(int(o.End))
		if !ok1 || !ok2 || s != int(n.Start) || end != int(n.End) || o.Start == 0 && o.End == 0 {
			return e, false
		}
		// A leaf's text must not change. Nor may a string's: the bytes of
		// its content between escape sequences belong to no leaf.
		if (o.next == NodeID(oi+1) || o.Kind == KindString) && overlaps(int(o.Start), int(o.End), e.Start, e.OldEnd) ||
			(n.next == NodeID(ni+1) || n.Kind == KindString) && overlaps(int(n.Start), int(n.End), e.Start, e.NewEnd) {
			return e, false
		}
		match[oi] = NodeID(ni)
		oi++
		ni++
	}
}
