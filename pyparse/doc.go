// Package pyparse turns Python source bytes into a flat, error-tolerant
// syntax tree. It is the only importer of tree-sitter in pallas-ls.
//
// Data flow: workspace reads bytes -> pyparse.Parse -> analysis builds a
// per-file Summary from the Tree and drops it. Nothing here knows about JAX.
//
// Parse runs the tree-sitter Python grammar through a small C shim that
// parses and walks the whole tree in one cgo call, copying every node into
// a preorder array (Tree.Nodes). Afterwards no C memory is held: trees,
// cursors and parsers never escape the call (parsers are pooled), so there
// is nothing to Close. Walking the copy costs Go array reads, not cgo calls,
// which is where the official Go binding spends its time.
//
// The binding is github.com/tree-sitter/go-tree-sitter (the official one):
// it is maintained, compiles the current tree-sitter runtime, and walks
// trees 2-4x faster than github.com/smacker/go-tree-sitter on the same
// grammar. The two cannot be linked into one binary; only this package
// would change if that choice were revisited. At init the shim also tells
// tree-sitter to use libc's allocator instead of the binding's Go
// callbacks, which removes about 40% of the parse cost.
//
// Mapper converts byte offsets to printed and LSP coordinates.
package pyparse
