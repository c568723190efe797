package ir

import (
	"crypto/sha256"

	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// The trivia path: the cheapest re-check of an edited file. When an edit
// changes only comments and the space between tokens (pp.TriviaEdit
// compares the new tree with the previous version's), the file's IR is the
// previous IR with every position moved by the edit: the builder reads
// nodes and the text of leaves, never comments, except in one place, the
// shard_map-mock test of a definition, which is computed again here. The
// previous Summary then takes the new source in place, without building
// an IR or comparing shapes, and the engine treats it as moved
// (analysis/reuse.go).
// This needs the IR to be a tree, every node reachable once from Body
// (analysis: TestIRIsATree), so that each position moves once.

// ShiftTo moves s, the summary of tree's previous version, onto tree's
// source after the trivia edit e. It changes nothing and returns false if
// the edit changes what a definition's text says about mocking shard_map.
func (s *Summary) ShiftTo(e pp.Edit, tree *pp.Tree) bool {
	if s.ParseError != "" {
		return false
	}
	src := tree.Src
	for _, d := range s.Defs {
		if !d.Lambda && mocksSPMD(src, e.MapSpan(d.Span)) != d.MocksSPMD {
			return false
		}
	}
	w := &ShapeWalk{patch: true, shift: &e}
	w.stmts(s.Body, s.Body)
	for i := range s.Refs {
		r := &s.Refs[i]
		r.Span, r.Root = e.MapSpan(r.Span), e.MapSpan(r.Root)
	}
	s.Src, s.Hash, s.mapper = src, sha256.Sum256(src), nil
	s.Comments, s.SyntaxErrors = tree.Comments(), tree.SyntaxErrors()
	return true
}
