// Package cli is the command-line front end of pallas-ls: `check`,
// `serve`, `explain`, `rules`, `version` and `help` (spec.md §1).
// cmd/pallas-ls/main.go is only a call to Main; everything a user can type
// is handled here, so the whole CLI runs in process in tests.
//
// # Data flow of `check`
//
//	flags ──▶ workspace.Discover (PATHs, .gitignore, settings excludes)
//	      ──▶ workspace.ReadAll ──▶ []analysis.SourceFile
//	      ──▶ config: nearest settings file and JAX version per directory
//	      ──▶ analysis.Engine.Check, once per settings group (below)
//	      ──▶ [--fix / --diff: PlanFixes, ApplyEdits, re-check until stable]
//	      ──▶ Report ──▶ WriteText | WriteJSON | WriteSARIF | WriteGitHub
//	      ──▶ exit code from --fail-on
//
// The formatters (format*.go) are pure functions of a Report; this package's
// other files only decide what goes into it and where it is printed:
// findings on stdout, everything about the run (warnings, syntax-error
// notes, -v details, "Fixed N problems.") on stderr, so that stdout of
// --format json or sarif is always one clean document.
//
// # Settings: the nearest file to each checked file wins (spec.md §6)
//
// The analysis is whole-program: a PAL101 in kernels.py depends on callers
// in other files, so every run must see all files. Files are grouped by the
// settings that apply to them (nearest settings file, and the JAX version
// detected for their directory); each group gets one Check over ALL files
// with its own options, and keeps only the findings in its own files. A
// shared analysis.Engine caches per-file summaries by content, so the extra
// runs cost the analysis but not the parsing. In the usual case, one
// settings file, this is exactly one Check. `--config FILE` replaces the
// nearest-file lookup: that file applies to every checked file, and its
// exclude globs are relative to its directory. Command-line flags sit on
// top of the settings: --select replaces the file's select, --ignore
// extends its ignore (ruff's reading, and the language server's).
//
// # Exit codes
//
// 0: nothing at or above --fail-on; 1: findings at or above it (--diff:
// something to fix); 2: usage, settings, I/O or internal error, or a file
// --fix refused to write. --exit-zero turns 1 into 0 but never hides a 2.
// Syntax-error notes never affect it. A settings file that cannot be used
// does not stop the run: the resolver gives its files the defaults, the
// error is printed (settings.reportProblems), everything is checked and
// reported, and the run exits 2. 130 and 143: ended by SIGINT or SIGTERM
// (signal.go: Run cancels the run, then stops it after the writes in
// progress if it has not ended 2 s later).
//
// # Writes
//
// Only --fix writes the user's files, through ReplaceFile (write.go): the
// real path must be inside the real root of the checked tree, every
// operation goes through an os.Root there, the content must not have
// changed since it was read, read-only and hard-linked files are refused,
// and mode and owner are kept.
//
// # Cache
//
// check keeps per-file summaries and whole results on disk (see
// workspace.Cache), keyed by content, this build and the options: a warm
// run with nothing changed parses nothing. The directory is --cache-dir,
// else $PALLAS_LS_CACHE_DIR, else the user cache directory/pallas-ls
// ($XDG_CACHE_HOME moves it); the cache lives in its own marked
// subdirectory there and never deletes anything else. --no-cache neither
// reads nor writes it; $PALLAS_LS_CACHE_LIMIT bounds its size.
// --jobs N bounds the parallelism of the run (GOMAXPROCS); 0 means all CPUs.
package cli

//go:generate go test . -run ^(TestRulesDocFresh|TestReadmeRulesFresh)$ -update
