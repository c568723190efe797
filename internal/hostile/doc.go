// Package hostile is the fault-injection suite of issue 20: it builds the
// real pallas-ls binary, builds hostile trees at test time (FIFOs, links
// to /dev/zero, huge and deep files, symlink escapes, read-only and
// hard-linked files, concurrent edits, a cache directory full of other
// people's files, huge TOML) and runs the binary on them as a subprocess,
// asserting what the README's Robustness and Security sections promise:
//
//   - every run ends within a bound (a watchdog kills it otherwise) and
//     answers SIGINT and SIGTERM (130, 143) without a half-written file;
//   - its peak memory stays under the stated cap (the child's RSS is
//     polled while it runs and read from rusage when it ends);
//   - nothing outside the checked tree is written, nothing is written at
//     all without --fix, and no file outside the cache's own entries is
//     deleted.
//
// It has no non-test code. PALLAS_LS_HOSTILE_BIN runs the suite against
// another binary (for example a build of an older commit, to see which
// tests it fails).
package hostile
