// Package lsp is the language server behind `pallas-ls serve`: the editor
// front end of the same engine that `pallas-ls check` runs, so the editor
// and CI never disagree. It is the only package that imports go.lsp.dev.
//
// Data flow:
//
//	client ──frames──▶ stream.go (tolerant LSP framing)
//	       ──messages─▶ handler.go (lifecycle gate, panic recovery, ordering)
//	       ──────────▶ documents.go (open buffers)   watch.go (file events, folders, settings)
//	                      │                              │ queued, one at a time
//	                      │                              ▼
//	                      │            index.go: discovery, settings, JAX version (project.go)
//	                      ▼                              │
//	                  diagnose.go: invalidate ◀──────────┘
//	                      │ debounce, cancel the previous run
//	                      ▼
//	                  check.go: snapshot (disk + buffers) → analysis engine, per folder
//	                  warmcache.go: the on-disk cache: a saved first result published
//	                              at once, trees read, the first check's saved after it
//	                      ▼
//	                  publish.go: per-file diff → publishDiagnostics / pull reports
//	                              (per file and workspace/diagnostic)
//	                  codeaction.go, hover.go: answer from the newest results
//	                  context.go: context labels (inlay hints / code lenses),
//	                              call hierarchy, go to the shard_map
//	                  status.go: the pallas-ls.status command (JAX version,
//	                              platform and why) for the editors' status items
//
// Positions inside the server are byte offsets, as in the engine;
// convert.go alone turns them into protocol positions (UTF-16 by default,
// UTF-8 when the client offers it) and engine diagnostics and edits into
// protocol ones.
//
// Every check is whole-program: each change re-checks all Python files of
// the workspace folder (the engine caches per-file summaries by content, so
// this is cheap), and publication diffs each file's set against what was
// last sent. Editing a callee therefore re-publishes its callers without any
// dependency bookkeeping here.
//
// Robustness rules, from the jsonrpc2 library's semantics: notification
// handlers never return errors (that would close the connection), every
// handler recovers panics, background work runs under a context detached
// from the request, and requests to the client (progress, registration,
// configuration) run on their own goroutines with a timeout, so a client
// that never answers slows nothing down. The server has check's limits: a
// buffer over workspace.MaxFileSize is not checked (check.go), discovery
// of a folder stops at defaultBudget (serve.go, index.go), the soft heap
// limit follows the Python indexed; the user is told once about each.
package lsp
