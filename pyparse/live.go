package pyparse

/*
#include "shim.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// cNode is the C node layout, which Node must match (TestNodeLayout).
type cNode = C.pp_node

// LiveTree is a tree-sitter tree kept between parses of one document, so
// that the next version parses incrementally: only the region around the
// edit is re-parsed. It holds C memory until Close. The language server's
// engine keeps one per recently edited file; everything else parses with
// Parse and keeps nothing.
type LiveTree struct {
	src  []byte
	tree *C.TSTree
	// flat is the flat Tree of this version, kept so that the next version
	// can be compared with it (TriviaEdit) without flattening it again.
	flat *Tree
	// raw is flat before the repair (repair.go), the tree tree-sitter
	// built: the next version copies unchanged subtrees from it, so an
	// incremental parse gives the tree a fresh one does. It is flat when
	// nothing was repaired.
	raw *Tree
}

// Close frees the tree; it is safe to call twice and on nil.
func (lt *LiveTree) Close() {
	if lt != nil && lt.tree != nil {
		C.ts_tree_delete(lt.tree)
		lt.tree = nil
	}
	if lt != nil {
		lt.flat, lt.raw = nil, nil
	}
}

// Flat returns the flat Tree of the version lt was parsed from, or nil.
// It stays valid after Close.
func (lt *LiveTree) Flat() *Tree {
	if lt == nil {
		return nil
	}
	return lt.flat
}

// ParseLive parses src, reusing old (a LiveTree of an earlier version of
// the same document, or nil). It returns the flat Tree and a new LiveTree
// for the next edit; old is consumed (closed) either way. The edit is
// derived from the two sources (their common prefix and suffix), so callers
// need not track LSP change events.
func ParseLive(old *LiveTree, src []byte) (*Tree, *LiveTree, error) {
	defer old.Close()
	if len(src) > MaxFileSize {
		return nil, nil, ErrTooLarge
	}
	var oldTree *C.TSTree
	var edit C.TSInputEdit
	if old != nil && old.tree != nil {
		edit = inputEdit(old.src, src)
		C.ts_tree_edit(old.tree, &edit)
		oldTree = old.tree
	}
	p := getParser()
	defer putParser(p)
	var cnodes *C.pp_node
	var count C.int32_t
	var newTree *C.TSTree
	var csrc *C.char
	if len(src) > 0 {
		csrc = (*C.char)(unsafe.Pointer(&src[0]))
	}
	var prevNodes *C.pp_node
	var prevCount C.int32_t
	if prev := old.rawFlat(); oldTree != nil && prev != nil && len(prev.Nodes) > 0 {
		// The previous flat tree is Go memory without pointers, laid out
		// as pp_node (TestNodeLayout): C reads it during the call only.
		prevNodes, prevCount = (*C.pp_node)(unsafe.Pointer(&prev.Nodes[0])), C.int32_t(len(prev.Nodes))
	}
	if rc := C.pp_reparse(p, oldTree, csrc, C.uint32_t(len(src)), prevNodes, prevCount, &edit, &cnodes, &count, &newTree); rc != 0 {
		return nil, nil, errors.New("parser failed")
	}
	defer C.free(unsafe.Pointer(cnodes))
	raw, suspect := fromC(src, unsafe.Slice(cnodes, int(count)))
	tree := raw
	if suspect {
		tree = repair(raw)
	}
	return tree, &LiveTree{src: src, tree: newTree, flat: tree, raw: raw}, nil
}

func (lt *LiveTree) rawFlat() *Tree {
	if lt == nil {
		return nil
	}
	return lt.raw
}

// inputEdit describes old -> new as one replacement of the differing
// middle (Diff), in bytes and (row, byte column) points.
func inputEdit(old, new []byte) C.TSInputEdit {
	d := Diff(old, new)
	return C.TSInputEdit{
		start_byte:    C.uint32_t(d.Start),
		old_end_byte:  C.uint32_t(d.OldEnd),
		new_end_byte:  C.uint32_t(d.NewEnd),
		start_point:   point(old, d.Start),
		old_end_point: point(old, d.OldEnd),
		new_end_point: point(new, d.NewEnd),
	}
}

func point(src []byte, off int) C.TSPoint {
	row, col := 0, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			row, col = row+1, 0
		} else {
			col++
		}
	}
	return C.TSPoint{row: C.uint32_t(row), column: C.uint32_t(col)}
}
