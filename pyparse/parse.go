package pyparse

/*
#cgo CFLAGS: -O2 -std=c11
#include "shim.h"
*/
import "C"

import (
	"errors"
	"runtime"
	"sync/atomic"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// language is the Python grammar; python.Language() hands out the C pointer.
var language = (*C.TSLanguage)(python.Language())

// The binding is imported for the C runtime it compiles and links; its Go
// API walks trees through one cgo call per step, which this package avoids.
var _ = sitter.NewLanguage

func init() {
	// Runs after go-tree-sitter's own init (a dependency initialises first),
	// which installs the Go-callback allocator this replaces.
	C.pp_use_libc_allocator()
	initKinds()
}

// MaxFileSize is the largest source Parse accepts; offsets are uint32 and
// larger files are never real hand-written Python.
const MaxFileSize = 64 << 20

// ErrTooLarge is returned for sources over MaxFileSize.
var ErrTooLarge = errors.New("file too large to parse")

// parsers is a bounded free list, so that concurrent parses each get their
// own parser and idle parsers never leak past the list's capacity.
var parsers = make(chan *C.TSParser, 2*runtime.GOMAXPROCS(0))

func getParser() *C.TSParser {
	select {
	case p := <-parsers:
		return p
	default:
		p := C.ts_parser_new()
		C.ts_parser_set_language(p, language)
		return p
	}
}

func putParser(p *C.TSParser) {
	select {
	case parsers <- p:
	default:
		C.ts_parser_delete(p)
	}
}

// Parse parses Python source into a flat, error-tolerant Tree. It is safe
// to call from many goroutines. No tree-sitter object outlives the call.
// Where the grammar falls short of CPython 3.11-3.13 the tree is repaired
// (repair.go), so it reads the source as CPython does.
func Parse(src []byte) (*Tree, error) {
	t, suspect, err := parseRaw(src)
	if err != nil || !suspect {
		return t, err
	}
	return repair(t), nil
}

// parseRaw is Parse without the repair; suspect reports a tree that may
// need one (fromC).
func parseRaw(src []byte) (*Tree, bool, error) {
	if len(src) > MaxFileSize {
		return nil, false, ErrTooLarge
	}
	var cnodes *C.pp_node
	var count C.int32_t
	var csrc *C.char
	if len(src) > 0 {
		csrc = (*C.char)(unsafe.Pointer(&src[0]))
	}
	// src is only read during the call and not retained by C (cgo rules).
	var rc C.int
	if noArena.Load() {
		p := getParser()
		rc = C.pp_flatten_pooled(p, csrc, C.uint32_t(len(src)), &cnodes, &count)
		putParser(p)
	} else {
		rc = C.pp_flatten(language, csrc, C.uint32_t(len(src)), &cnodes, &count)
	}
	switch rc {
	case 0:
	case -2:
		return nil, false, errors.New("out of memory while parsing")
	default:
		return nil, false, errors.New("parser failed")
	}
	defer C.free(unsafe.Pointer(cnodes))
	t, suspect := fromC(src, unsafe.Slice(cnodes, int(count)))
	return t, suspect, nil
}

// noArena makes Parse use pooled parsers and libc's allocator (SetArena).
var noArena atomic.Bool

// SetArena turns on or off, for later Parse calls, the per-parse arena
// that tree-sitter allocates from (shim.c; on by default). Off, Parse
// reuses pooled parsers and calls libc's allocator for every node, as the
// parse-only floor of the benchmark's reference does; the benchmark
// measures both.
func SetArena(on bool) { noArena.Store(!on) }

// defaultArenaCap bounds the arena of one parse (shim.c); beyond it the
// parse takes memory from libc.
const defaultArenaCap = 512 << 20

// setArenaCap sets the arena bound (0: the default), for tests.
func setArenaCap(n int) {
	if n == 0 {
		n = defaultArenaCap
	}
	C.pp_set_arena_cap(C.size_t(n))
}

// fromC copies the shim's node array into Go memory. suspect reports a
// tree that the repair must look at: one with a syntax error, a lone `\r`
// or the shape of another of the grammar's gaps (gapShape).
func fromC(src []byte, raw []C.pp_node) (*Tree, bool) {
	nodes := make([]Node, len(raw))
	var flags uint8
	suspect := false
	splat, walrus := KindListSplat, KindNamedExpression // in registers, not reloaded per node
	for i := range raw {
		r := &raw[i]
		k := Kind(r.symbol)
		nodes[i] = Node{
			Start: uint32(r.start), End: uint32(r.end),
			Parent: NodeID(r.parent), next: NodeID(r.next),
			Kind: k, Field: Field(r.field), flags: uint8(r.flags),
		}
		flags |= uint8(r.flags)
		if (k == splat || k == walrus) && !suspect {
			suspect = gapShape(nodes, NodeID(i))
		}
	}
	suspect = suspect || flags&(flagError|flagMissing) != 0 || loneCR(src) >= 0
	return &Tree{Src: src, Nodes: nodes}, suspect
}
