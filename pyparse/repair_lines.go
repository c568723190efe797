package pyparse

// joinLines: inside brackets Python ignores line breaks and indentation,
// but the grammar's scanner reads a continuation line indented less than
// its statement as a dedent: `    x = (a.\n  b)` is a syntax error. For each
// such line, the line breaks before it become spaces (same length), except
// one that ends a comment or follows a backslash. Brackets are counted
// over the tree's tokens (codeTokens), and only a pair that closes counts,
// so that a bracket left open while typing does not swallow the lines
// after it; nor is a line joined that begins a statement no bracket can
// hold (`def`, `class`, `return`...).
func joinLines(t *Tree, g *gapKinds) []fix {
	toks := codeTokens(t)
	closes := make([]bool, len(toks)) // per opening bracket: it is closed
	var open []int
	for j, id := range toks {
		switch t.Nodes[id].Kind {
		case g.lparen, g.lbracket, g.lbrace:
			open = append(open, j)
		case g.rparen, g.rbracket, g.rbrace:
			if len(open) > 0 {
				closes[open[len(open)-1]], open = true, open[:len(open)-1]
			}
		}
	}
	var out []fix
	outer := -1 // the outermost open bracket, if it closes
	depth := 0
	for j, id := range toks {
		n := &t.Nodes[id]
		if start := int(n.Start); outer >= 0 && startsLine(t.Src, start) && !statementWord(t, id) &&
			indentOf(t.Src, start) < indentOf(t.Src, int(t.Nodes[toks[outer]].Start)) {
			out = append(out, lineBreaks(t.Src, int(t.Nodes[toks[j-1]].End), start)...)
		}
		switch n.Kind {
		case g.lparen, g.lbracket, g.lbrace:
			if depth++; depth == 1 && closes[j] {
				outer = j
			}
		case g.rparen, g.rbracket, g.rbrace:
			if depth > 0 {
				if depth--; depth == 0 {
					outer = -1
				}
			}
		}
	}
	return out
}

// codeTokens lists the tree's tokens in order, each string whole (its
// braces are no brackets), without extras and MISSING tokens.
func codeTokens(t *Tree) []NodeID {
	var out []NodeID
	for i := 0; i < len(t.Nodes); {
		n := &t.Nodes[i]
		switch {
		case n.Kind == KindString:
			out = append(out, NodeID(i))
			i = int(n.next)
			continue
		case n.next == NodeID(i)+1 && n.flags&(flagExtra|flagMissing) == 0 && n.End > n.Start:
			out = append(out, NodeID(i))
		}
		i++
	}
	return out
}

// statementWord: a token that begins a statement no bracket can hold.
func statementWord(t *Tree, id NodeID) bool {
	switch t.Text(id) {
	case "def", "class", "return", "import", "try", "while", "except", "finally", "elif",
		"pass", "break", "continue", "raise", "global", "nonlocal", "del", "assert", "@":
		return true
	}
	return false
}

// startsLine: only blanks lie between the line's start and off.
func startsLine(src []byte, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case '\n', '\r':
			return true
		case ' ', '\t', '\f':
			continue
		}
		return false
	}
	return true
}

// indentOf is the width of the blanks that start off's line.
func indentOf(src []byte, off int) int {
	start := off
	for start > 0 && src[start-1] != '\n' && src[start-1] != '\r' {
		start--
	}
	n := 0
	for i := start; i < off && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f'); i++ {
		n++
	}
	return n
}

// lineBreaks lists the joinable line breaks of src[from:to], the space
// between two tokens: not one that ends a comment or follows a backslash.
func lineBreaks(src []byte, from, to int) []fix {
	var out []fix
	comment := false
	for i := from; i < to; i++ {
		switch c := src[i]; {
		case c == '#':
			comment = true
		case c == '\n' || c == '\r':
			if !comment && (i == 0 || src[i-1] != '\\') && !(c == '\n' && i > 0 && src[i-1] == '\r' && i >= 2 && src[i-2] == '\\') {
				out = append(out, fix{kind: fixJoinLine, at: i})
			}
			if c == '\n' {
				comment = false
			}
		}
	}
	return out
}
