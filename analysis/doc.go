// Package analysis is the pallas-ls engine: from source files to
// Diagnostics with fixes, the one value every front end renders. One
// file's IR is package ir; the rules are package rules; what JAX APIs do
// is package lowering.
//
// The files, in the order data flows, in groups: a file uses the names of
// its own group and of the groups listed before it, never of a later or a
// sibling one (TestRoomsPointOneWay holds every file to its group).
//
//	contract     what rules and front ends see
//	  options.go     Options (settings and the rule set of a run), SourceFile
//	  target.go      Target: the backend a kernel call runs on, and why (Pass.Target)
//	  diagnostic.go  Diagnostic, Location, SuggestedFix, TextEdit
//	  edits.go       a span of an ir.Summary as a Location; the edits of fixes
//	  analyzer.go    Analyzer, Doc, Pass; Validate checks a rule set
//	  vocabulary.go  Pass.WrittenElsewhere, WrittenInWorkspace: is a name written anywhere else in the program, or the workspace
//	  facts.go       KernelCall, Reach: the facts rules read; hover text
//	  facts_config.go  KernelConfig: how a pallas_call is configured
//	  labels.go      context labels and reach navigation, from the facts
//	  facts_lowering.go  LoweringConfig: compiler params, platform, barrier (PAL20x)
//	  suppress.go    Suppression: the `# pallas-ls: ignore[...]` comments
//	  fix.go         fixes validated, planned and applied; result.go Result
//	program      program.go: modules by every importable name; the resolver
//	prune        prescan.go reads each file's bytes (imports, trigger words);
//	             prune.go decides the entries and the files worth parsing
//	interpreter  the abstract interpreter (its DESIGN comment: interp.go)
//	  interp.go, driver.go   state and step budget; the entries, in order
//	  values.go, env.go, context.go   values, scopes, SPMD contexts;
//	                 symbols.go library parameters (and attributes a
//	                 __getattr__ chooses) as Unknowns with an identity
//	  exec.go, eval.go, call.go, func.go, attr.go   statements, expressions,
//	                 calls, functions and classes, attributes and imports
//	  params.go      parameterized tests: one call per parameter set
//	  api.go         JAX calls by role; kernel.go, classify.go kernels and
//	                 what they communicate; kconfig.go their configuration
//	                 (compiler params, barrier); mesh.go meshes, shard_map
//	  arith.go, arrays.go   ints and tuples folded; arrays of known shape
//	                 and dtype; builtins.go callable() and isinstance();
//	                 treemap.go jax.tree.map over literal trees
//	  blockspec.go   a pallas_call's grid, BlockSpecs, operands, kernel
//	                 signature and body calls, rendered as KernelConfig
//	  inert.go       library functions that cannot reach a kernel: skipped
//	  record.go      kernel calls recorded, and rendered as facts;
//	                 collective.go collectives on unbound axis names (eagerread.go:
//	                 their results read as Python values in library code);
//	                 smapply.go shard_map applications (PAL106, PAL107);
//	                 eagerref.go eager memory-space refs (PAL217)
//	  journal.go, history.go, resume.go, detached.go   the seam to the
//	                 engine: every change undoable, a run resumed at an
//	                 entry, test modules, main blocks, scripts (modules
//	                 no file imports) and library entries run detached
//	                 and replayed
//	suppression  suppress_apply.go: findings silenced, suppressions marked
//	engine       check.go Engine and Check: pruning, then a run, a resume or
//	             a reuse; summarize.go summaries (cached, parsed in
//	             parallel and incrementally); report.go the rules one by
//	             one, suppressions, notes; reuse.go which edits keep the
//	             last run; store.go the on-disk cache (Store: trees and
//	             results; Trees: trees only, saved after the check,
//	             the server's); platform.go the
//	             project's platform evidence (target.go)
//
// Where new things go. A rule: a file in analysis/rules, listed in
// rules.All, with fixtures in rules/testdata/CODE and a Doc whose Example
// fires (Doc.Scaffold when it is not a program by itself). A fact it needs
// from the interpreter: a field of KernelCall or a type beside it in
// facts.go, filled in record.go. A kind of value (shapes, tuples, dtypes):
// a type in values.go (its memo key in appendKey, its truth, whether it
// is inert in inert.go), made where the APIs producing it are modelled.
// An API role: lowering's table first, then its case in api.go (kernel.go
// or mesh.go for kernels and meshes).
//
// Why program, interpreter and engine are not packages of their own: the
// interpreter renders facts (contract) and resolves through the program,
// and the engine rewinds the interpreter through about fifteen methods
// and its record types. As packages, the contract would have to move
// below them (every front end's imports change) and the seam would become
// exported API; the test above already keeps the groups apart, and the
// seam is narrow enough to cut later if a group outgrows its files.
//
// The Engine keeps the previous run: an edit that leaves every IR the same
// apart from positions re-renders it, one inside bodies the run executed
// resumes it (resume.go), any other runs the interpretation again.
// Fixes are SuggestedFix values of byte-offset edits; fix.go validates and
// applies them, detecting conflicts.
package analysis
