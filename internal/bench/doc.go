// Command bench is the pallas-ls benchmark that anyone can run:
//
//	go run ./internal/bench [-lines 100000] [-sizes 10k,100k,1M] [-keep DIR] [-json]
//	                        [-edits 50] [-runs 1] [-bin PATH] [-seed 1] [-timeout 10m]
//	go run ./internal/bench -dir PATH [-runs 3] [-json] [-bin PATH]
//	                        [-edits N [-seed 1] [-vs OLD_BIN] [-profile DIR]]
//	go run ./internal/bench -monorepo 3 [-runs N] [-profile DIR] [-json] TREE ...
//	scripts/bench [same flags]
//
// It generates a synthetic but realistic Python project (gen*.go), then
// measures the pallas-ls binary on it (built from ./cmd/pallas-ls unless
// -bin names one). Everything is deterministic for a seed and size. With
// -dir it measures an existing tree instead (tree.go: a JAX checkout, say):
// the parse-only floors and the three checks, and with -edits N an editor
// session of N one-line edits at random lines of its files (edits_tree.go:
// ` + 0` after the expression of a one-line statement; didChange -> fresh
// results; p50, p90, p99, first diagnostics after initialize, the
// server's CPU and VmHWM; -vs gives the same edits to a second binary's
// server, interleaved, for before/after figures from one run).
// With -monorepo it checks K hard-linked copies of the trees given, each
// under a top folder of its own, as one program, for 1..K copies
// (monorepo.go; docs/scaling.md).
//
// # The corpus
//
// Generate writes, for a target number of lines: about 30% JAX code, in
// "families" (a Pallas kernel module with a ring kernel doing remote DMAs
// with pltpu.make_async_remote_copy and device_id={axis: ...},
// lax.axis_index, lax.fori_loop bodies and pl.when, a local gridded kernel
// and launchers using functools.partial; a call chain of 3-6 functions over
// 1-3 ops modules with varied import styles; shard_map wrappers in call,
// jit-over-partial-decorator and decorator forms, one family in eight
// still on jax.experimental.shard_map; a launch script; a pytest module)
// and one 3000-line kernel file, acme/hot/fused_kernels.py, for the editor
// test. One family in nine also runs its chain under a bare jax.jit, and
// the hot file has two such call sites, so PAL101 fires. The other 70% is
// plain Python that never imports jax: dataclass configs, loaders, string
// handling, metrics, argparse, async and match statements, with tests.
// Packages have __init__.py files that re-export names other modules
// import. Comments and docstrings (annotate) bring the share of code lines
// to that of real projects (about 60%).
//
// # The measurements
//
//  1. Parse-only floor: every file through pyparse.Parse on GOMAXPROCS
//     workers, nothing else; the fastest of three runs. The floor uses
//     libc's allocator for every node (pyparse.SetArena(false)), the
//     reference the targets are stated against; the parse as check does
//     it, with pyparse's per-parse arena, is the next row.
//  2. Cold check: `pallas-ls check --no-cache --exit-zero --format json .`
//     as a subprocess; wall time and peak RSS (ru_maxrss of the child).
//  3. Warm check: the same without --no-cache, run twice: the first fills
//     the persistent cache ("cache fill"), the second is the warm run.
//     XDG_CACHE_HOME points into the temp dir, so the user's cache is
//     untouched. With -runs N, cold and warm are the fastest of N.
//  4. Editor: `pallas-ls serve` as a subprocess, spoken to over stdio with
//     our own Content-Length framing (lspclient.go). initialize with the
//     corpus as rootUri and workspace folder, push diagnostics with
//     versionSupport, work-done progress; initialized; then wait for the
//     indexing $/progress to end and the first burst of publishDiagnostics
//     to pause for 500 ms (the whole-workspace check). The server's RSS is
//     read from /proc/<pid>/status then. didOpen the hot file and hover
//     once (hovers are answered from results that include every earlier
//     change, so the answer marks the end of that check). Then -edits
//     hovers on kernel calls (median, p95) and -edits incremental
//     didChange edits, each timed from writing didChange to reading the
//     publishDiagnostics carrying that document version. The server
//     publishes a file only when its set of diagnostics changed, so every
//     edit changes the hot file's set, in a cycle of six (edits.go): insert
//     and delete a comment line at the top (every finding moves), append
//     and remove `# pallas-ls: ignore[PAL101]` on a finding's line, and
//     flip remote=True to False and back in the hot file's debug entry
//     point, which switches a kernel's communication off and on. Latency
//     includes the server's debounce (50 ms by default).
//  5. A table per size with lines/s, the ratios cold/parse-only and
//     warm/cold, and with several sizes a growth table (seconds per 100k
//     lines stays flat when growth is linear).
//
// Every wait has a limit (-timeout, and per edit the larger of 30 s and
// ten cold checks) and says what it was waiting for when it gives up;
// subprocesses are shut down (or killed) and the temp dir removed on exit,
// including on Ctrl-C. -keep DIR keeps the corpus (DIR/<lines> with
// -sizes).
//
// `go test ./internal/bench` checks the generator (deterministic, parses
// without syntax errors, PAL101 found, the flag edit removes a finding);
// `go test -bench . ./internal/bench` runs BenchmarkParse,
// BenchmarkCheckCold and BenchmarkRecheck in process on a 20k-line corpus.
package main
