package pyparse

// Grammar gaps. tree-sitter-python v0.23.6, the newest grammar the Go
// module proxy serves, rejects or misreads some Python that CPython 3.11-3.13
// accepts:
//
//   - star-expressions whose operand is not a plain name, attribute or
//     subscript: `x.at[*(i for i in r)]`, `x[*-a]`, `x = *f(),` (PEP 646
//     and earlier) are syntax errors;
//   - and where it accepts them it binds the star too tightly:
//     `[*a.b()]` and `(*q.shape, d)` star only `a` and `q` (rotateSplats);
//   - `except *E` (with a space) is an except clause over list_splat(E),
//     and mixed with `except* E` in one try a syntax error;
//   - a format spec that starts with `=`: `f"{x:=^80}"` is a syntax
//     error, and `f"{x:=8}"` reads as an assignment expression;
//   - PEP 696 defaults of type parameters (3.13): `def f[T = int]()`;
//   - a lone `\r` (old Mac line endings) is not always a line break, and
//     never ends a comment;
//   - a line in brackets indented less than its statement is a dedent.
//
// The repair reads the tree for these shapes. A misbound star is fixed in
// the flat array. For the others the file is parsed again with same-length
// substitutions, so every byte offset stays put: the `*` of a
// star-expression blanked (its operand then parses as an ordinary
// expression, and a list_splat is put back around it), the star of
// `except *` moved next to the keyword, the `=` that opens a format spec
// replaced by `<`, the `=` of a type-parameter default read as `:`, a lone
// `\r` read as `\n`, a line break in brackets read as a space. Every
// substitution must produce the shape it was made for in the new tree, or
// it is undone; the new tree is kept only if it has no more syntax errors
// than the first (line breaks leave no shape: only this count judges them). Tree.Src is always the file's
// own bytes, and the tokens that stood in get their own kind and span back
// (held.finish), so nothing downstream can tell a repaired tree from one
// the grammar built.
//
// Cost: only a file whose tree has a syntax error, a gap's shape or a lone
// `\r` is looked at (fromC flags it while copying the nodes), and only one
// with a gap other than a misbound star is parsed again, usually once.

// maxRounds bounds the parses of one repair (each round undoes the
// substitutions that did not hold, or adds the gaps the last parse
// revealed).
const maxRounds = 4

// repair returns raw's source parsed as CPython reads it: raw itself when
// nothing needs fixing, else a new tree (raw is not changed).
func repair(raw *Tree) *Tree {
	t := raw
	if fs := findFixes(raw); len(fs) > 0 {
		if r := reparse(raw, fs); r != nil {
			t = r
		}
	}
	return rotateSplats(t)
}

// reparse parses raw's source with the fixes substituted, dropping those
// that do not hold and adding those the new tree shows, until a round
// keeps them all; nil if none holds or the rounds run out.
func reparse(raw *Tree, first []fix) *Tree {
	src, base := raw.Src, raw.badNodes()
	tried := map[fix]bool{}
	var active []fix
	add := func(fs []fix) bool {
		n := len(active)
		for _, f := range fs {
			if key := (fix{kind: f.kind, at: f.at}); !tried[key] {
				tried[key] = true
				active = append(active, f)
			}
		}
		return len(active) > n
	}
	add(first)
	buf := make([]byte, len(src))
	for round := 0; round < maxRounds && len(active) > 0; round++ {
		copy(buf, src)
		for _, f := range active {
			f.apply(buf)
		}
		t, _, err := parseRaw(buf)
		if err != nil {
			return nil
		}
		held, ok := holdAll(t, active)
		if !ok {
			active = held.fixes
			continue
		}
		if add(findFixes(t)) {
			continue
		}
		if t.badNodes() > base {
			if active = withoutBlind(active); len(active) < len(held.fixes) {
				continue // the fixes no shape vouches for were to blame
			}
			return nil
		}
		t.Src = src
		return held.finish(t)
	}
	return nil
}

// withoutBlind drops the fixes that leave no shape to check (line
// breaks), which only the error count judges.
func withoutBlind(fs []fix) []fix {
	var out []fix
	for _, f := range fs {
		if f.kind != fixLoneCR && f.kind != fixJoinLine {
			out = append(out, f)
		}
	}
	return out
}

// held is what a round's fixes produced in the new tree.
type held struct {
	fixes []fix
	at    []NodeID // per fix: the node finish adjusts
	wraps []wrap
}

// holdAll checks every fix against t; ok when all of them held.
func holdAll(t *Tree, fs []fix) (held, bool) {
	var h held
	bad := badBelow(t)
	for _, f := range fs {
		id, w, ok := f.holds(t, bad)
		if !ok {
			continue
		}
		h.fixes, h.at = append(h.fixes, f), append(h.at, id)
		if w != nil {
			h.wraps = append(h.wraps, *w)
		}
	}
	return h, len(h.fixes) == len(fs)
}

// finish gives the tokens that stood in their own kind and span, and puts
// the blanked stars back.
func (h *held) finish(t *Tree) *Tree {
	g := gaps()
	for i, f := range h.fixes {
		switch f.kind {
		case fixExceptStar:
			t.Nodes[h.at[i]].End = uint32(f.arg) + 1 // `except *` is one token, to the star
		case fixTypeDefault:
			t.Nodes[h.at[i]].Kind = g.eq
		}
	}
	return insertWraps(t, h.wraps)
}

// gapShape reports whether node i of a tree being copied (its parent
// already is) has the shape of a gap: a list_splat heading an operand
// (rotateSplats) or valued by an except clause (exceptSplat), an
// assignment expression that is a replacement field's (specWalrus).
func gapShape(nodes []Node, i NodeID) bool {
	p := nodes[i].Parent
	if p < 0 {
		return false
	}
	g := gaps()
	if nodes[i].Kind == KindNamedExpression {
		return nodes[p].Kind == g.interpolation || nodes[p].Kind == g.formatExpr
	}
	return p+1 == i && g.operand[nodes[p].Kind] || nodes[p].Kind == g.exceptClause
}

// badNodes counts ERROR and MISSING nodes.
func (t *Tree) badNodes() int {
	n := 0
	for i := range t.Nodes {
		if t.Nodes[i].flags&(flagError|flagMissing) != 0 {
			n++
		}
	}
	return n
}
