package hostile

import (
	"strings"
	"testing"
	"time"
)

// slashCap is the memory a server with a workspace folder of / may take:
// its index budget (20,000 files, 256 MiB of Python) checked once. On a
// machine with 59,000 Python files under / it peaked at 560 MiB; with
// 94,000 (2026-12-07), 650 MiB and 14-18 s to answer the hover, until the
// folder / stopped being one group per directory (lsp rootOf) and a hover
// of a file no check holds stopped waiting for the first check: 294 MiB,
// 1.6 s.
const slashCap = 1 << 30

// TestServeWorkspaceOfSlash (issue 20, defect 5): a workspace folder of /
// is indexed within the server's budget, in bounded time and memory; the
// user is told when the budget ran out, and requests are answered.
func TestServeWorkspaceOfSlash(t *testing.T) {
	if testing.Short() {
		t.Skip("walks /")
	}
	t.Parallel()
	s := newServeCap(t, t.TempDir(), slashCap)
	s.initialize("/")
	deadline := time.Now().Add(runBound)
	for !strings.Contains(s.c.stderr.String(), "info: indexed ") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	id := s.request("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": fileURI("/nonexistent.py")}, "position": map[string]any{"line": 0, "character": 0}})
	if !s.await(runBound, func(m map[string]any) bool { return m["id"] == float64(id) }) {
		t.Errorf("no answer to a hover")
	}
	r := s.shutdown()
	t.Logf("indexed / in %v, peak RSS %d MiB", r.elapsed, r.peakRSS>>20)
	bounded(t, r, 0)
	if strings.Contains(r.stderr, "indexed 20000 Python files") && !strings.Contains(r.stderr, "more than 20000 Python files") {
		t.Errorf("the server did not say it stopped at its budget:\n%s", tail(r.stderr))
	}
}
