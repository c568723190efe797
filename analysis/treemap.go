package analysis

import "github.com/pallas-ls/pallas-ls/analysis/ir"

// maxTreeDepth bounds how deep treeMap follows literal tuples, lists and
// dicts (the spec trees it matters for are one or two levels deep).
const maxTreeDepth = 4

// treeMap is jax.tree.map(f, tree, *rest, is_leaf=None): f is called on
// the leaves of literal trees (tuples, lists, dicts with known keys), the
// result has the same structure, so `jax.tree.map(lambda s:
// NamedSharding(mesh, s), (P("x"), P()))` keeps its shardings for a
// jit's in_shardings. None is an empty subtree, as in JAX. A tree that is
// not literal (an array, a parameter) still runs f once, on Unknown
// leaves, so what f reaches is analysed; the result is then opaque.
func (in *interp) treeMap(qual string, a args, site *ir.Expr) value {
	opaque := &vExtCall{Qual: qual, Args: a.pos, Kw: a.kw, Site: site, File: in.file}
	fn := first(a)
	if !isCallable(fn) {
		return opaque
	}
	var trees []value
	if len(a.pos) > 1 {
		trees = a.pos[1:]
	} else if t, ok := a.kw["tree"]; ok {
		trees = []value{t}
	}
	if len(trees) == 0 || a.opaque {
		in.call(fn, args{opaque: true}, site)
		return opaque
	}
	isLeaf := a.kw["is_leaf"]
	if v, ok := in.mapTree(fn, isLeaf, trees, site, maxTreeDepth); ok {
		return v
	}
	in.call(fn, args{opaque: true}, site)
	return opaque
}

// mapTree maps fn over trees[0]'s structure, the other trees' nodes in
// step; ok is false where a structure is not known (or they differ).
func (in *interp) mapTree(fn, isLeaf value, trees []value, site *ir.Expr, depth int) (value, bool) {
	node := trees[0]
	if u, ok := node.(*vUnion); ok && len(trees) == 1 {
		// One of several trees (a helper's `spec if x is not None else
		// None`): the join of their maps.
		var out value
		for _, alt := range u.Alts {
			v, ok := in.mapTree(fn, isLeaf, []value{alt}, site, depth)
			if !ok {
				return nil, false
			}
			out = join(out, v)
		}
		return out, true
	}
	switch node.(type) {
	case *vSeq, *vDict:
		if depth == 0 {
			return nil, false
		}
		if isCallable(isLeaf) {
			leaf, known := truth(in.call(isLeaf, args{pos: []value{node}}, site))
			if !known {
				return nil, false
			}
			if leaf {
				return in.call(fn, args{pos: trees}, site), true
			}
		}
	}
	switch n := node.(type) {
	case *vSeq:
		items, ok := in.mapItems(fn, isLeaf, trees, len(n.Items), site, depth, func(t value, i int) (value, bool) {
			s, ok := t.(*vSeq)
			if !ok || len(s.Items) != len(n.Items) {
				return nil, false
			}
			return s.Items[i], true
		})
		if !ok {
			return nil, false
		}
		return &vSeq{Items: items, List: n.List}, true
	case *vDict:
		if n.Open {
			return nil, false
		}
		items, ok := in.mapItems(fn, isLeaf, trees, len(n.Items), site, depth, func(t value, i int) (value, bool) {
			// JAX pairs dict subtrees by key; literal dicts built the
			// same way list their keys alike, anything else is unknown.
			d, ok := t.(*vDict)
			if !ok || d.Open || len(d.Items) != len(n.Items) || !sameKey(d.Keys[i], n.Keys[i]) {
				return nil, false
			}
			return d.Items[i], true
		})
		if !ok {
			return nil, false
		}
		return &vDict{Keys: n.Keys, Items: items}, true
	}
	if isNone(node) {
		return node, true
	}
	if isUnknown(node) {
		return nil, false
	}
	return in.call(fn, args{pos: trees}, site), true
}

// mapItems maps the n subtrees of the trees' nodes in step: child gives a
// tree's i-th subtree, false where its node does not match the first's.
func (in *interp) mapItems(fn, isLeaf value, trees []value, n int, site *ir.Expr, depth int, child func(t value, i int) (value, bool)) ([]value, bool) {
	items := make([]value, n)
	for i := range items {
		sub := make([]value, len(trees))
		for j, t := range trees {
			c, ok := child(t, i)
			if !ok {
				return nil, false
			}
			sub[j] = c
		}
		v, ok := in.mapTree(fn, isLeaf, sub, site, depth-1)
		if !ok {
			return nil, false
		}
		items[i] = v
	}
	return items, true
}

// sameKey: two literal dict keys known to be equal.
func sameKey(a, b value) bool {
	sa, oka := constStr(a)
	sb, okb := constStr(b)
	return oka && okb && sa == sb
}
