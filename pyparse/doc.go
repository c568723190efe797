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
// The grammar (tree-sitter-python v0.23.6, the newest the module proxy
// serves) falls short of CPython 3.11-3.13 in a few places: star-expressions
// such as `x.at[*(i for i in r)]` are syntax errors, `[*a.b()]` stars only
// `a`, `except *E`, format specs that start with `=` and PEP 696 defaults.
// Parse repairs those trees (repair.go: a rotation of the flat array, or a
// second parse with same-length substitutions, every span exact), so a
// file CPython parses gets no syntax error (TestRealTree, TestSyntaxCorpus).
//
// Mapper converts byte offsets to printed and LSP coordinates.
package pyparse
