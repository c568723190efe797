// Package ir is the engine's picture of one Python file: a small AST of
// what the analysis needs (statements, expressions, definitions), the
// file's references to JAX names and its comments, built from a pyparse
// tree in one walk and kept without the tree (Summary), so that it can be
// cached by content and reused across runs and keystrokes. Nothing here
// knows about contexts, kernels or rules, and nothing imports the engine.
//
// Files, in the order data flows:
//
//	ir.go        the node types: Expr, Stmt, FuncDef, ClassDef, Import, ...
//	build.go     the builder, pyparse tree -> IR: statements; build_defs.go
//	             defs, classes and imports; build_expr.go expressions
//	refs.go      APIRef: each name the file spells under `jax`, resolved
//	             through its own imports (for the API-history rules)
//	summary.go   Summary and Summarize: one file's IR, top-level imports,
//	             references, comments and syntax errors; main blocks marked
//	text.go      what the text says around the IR, for fixes: line ending,
//	             indentation, the statement at an offset, aliases, where an
//	             import goes
//	shape.go     ShapeWalk: two IRs of one file compared node by node, and
//	             the old one given the new one's positions (SameShape, MoveTo)
//	trivia.go    Summary.ShiftTo: every position moved by an edit of comments
//	             and spacing, without building an IR
//	deadbody.go  CompareDead, CompareBodies, MergeDead: two IRs alike but for
//	             some function bodies, the new bodies merged into the old IR
//
// The last three make the editor's re-checks cheap; the engine
// (analysis/reuse.go) decides which applies, and the tests check that each
// result equals a fresh Summarize of the new text.
//
// A new IR field is built in build*.go, compared and moved in shape.go
// (TestShapeWalkCoversTheIR lists the fields it knows), and bumps the cache
// format (analysis.FormatVersion).
package ir
