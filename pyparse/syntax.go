package pyparse

// SyntaxError is one region the parser could not make sense of.
type SyntaxError struct {
	Span    Span
	Missing string // for an inserted token, what was missing (")", ":")
}

// SyntaxErrors lists the outermost ERROR regions and every MISSING token,
// in source order. The rest of the tree is still usable: tree-sitter
// recovers around these regions, so analysis continues on what parsed.
func (t *Tree) SyntaxErrors() []SyntaxError {
	var out []SyntaxError
	for i := 0; i < len(t.Nodes); {
		n := &t.Nodes[i]
		switch {
		case n.IsError():
			out = append(out, SyntaxError{Span: n.Span()})
			i = int(n.next) // nested errors are part of this region
			continue
		case n.Missing():
			out = append(out, SyntaxError{Span: n.Span(), Missing: n.Kind.String()})
		}
		i++
	}
	return out
}

// Comment is one `#` comment.
type Comment struct {
	Span Span
	Text string // including the leading '#'
	// Trailing is true when code precedes the comment on its line.
	Trailing bool
}

// Comments returns the file's comments in source order.
func (t *Tree) Comments() []Comment {
	var out []Comment
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Kind != KindComment {
			continue
		}
		out = append(out, Comment{Span: n.Span(), Text: string(t.Src[n.Start:n.End]), Trailing: codeBefore(t.Src, int(n.Start))})
	}
	return out
}

func codeBefore(src []byte, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case '\n', '\r':
			return false
		case ' ', '\t', '\f':
			continue
		}
		return true
	}
	return false
}
