package lsp

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
)

func TestPushDiagnosticsCarryRuleLinkWitnessAndData(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", callerSrc)
	p := tc.waitDiags("main.py", 1, nil)
	if v, ok := p.Version.Get(); !ok || v != 1 {
		t.Errorf("publish version = %v, want 1", p.Version)
	}
	d := p.Diagnostics[0]
	if d.Code != protocol.String("PAL101") || d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("code/severity = %v/%v", d.Code, d.Severity)
	}
	if want := "https://github.com/pallas-ls/pallas-ls/blob/main/docs/rules.md#pal101"; string(d.CodeDescription.Href) != want {
		t.Errorf("codeDescription = %q, want %q", d.CodeDescription.Href, want)
	}
	if want := (protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2, Character: 12}}); d.Range != want {
		t.Errorf("range = %+v, want %+v", d.Range, want)
	}
	if len(d.RelatedInformation) != 2 || d.RelatedInformation[1].Location.URI != tc.uri("kernels.py") ||
		d.RelatedInformation[1].Location.Range.Start.Line != 0 {
		t.Errorf("related = %+v, want the call and then kernels.py line 0", d.RelatedInformation)
	}
	if dd, ok := fromDiagnostic(d); !ok || dd.Code != "PAL101" || dd.Fixes != 2 {
		t.Errorf("data = %s, want code and fix count", d.Data)
	}
}

// A whole-program check re-publishes the caller when only the callee
// changes, and a file's set is published again only when it changed.
func TestCalleeEditRepublishesCaller(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc, "a_caller.py": callerSrc}, clientOpts{})
	tc.waitDiags("a_caller.py", 1, nil) // closed files are reported too
	tc.open("kernels.py", kernelSrc)
	tc.edit("kernels.py", 2, nil, "def local_kernel(x_ref, o_ref):\n    pass\n")
	tc.waitDiags("a_caller.py", 0, nil)
	tc.edit("kernels.py", 3, nil, kernelSrc)
	tc.waitDiags("a_caller.py", 1, nil)

	before := tc.pubCount("a_caller.py")
	tc.edit("kernels.py", 4, nil, kernelSrc+"# a comment changes nothing for the caller\n")
	tc.open("z_sentinel.py", "comm_call(z)\n")
	tc.waitDiags("z_sentinel.py", 1, nil)
	if after := tc.pubCount("a_caller.py"); after != before {
		t.Fatalf("a_caller.py republished (%d -> %d publications) though its set did not change", before, after)
	}
}

// Rapid edits are debounced and each cancels the previous diagnosis; the
// final publication reflects the final text and version.
func TestRapidEditsConverge(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", "")
	text := ""
	for v := int32(2); v <= 30; v++ {
		text += "comm_call(x)\n"
		tc.edit("main.py", v, nil, text)
	}
	tc.waitDiags("main.py", 29, func(p protocol.PublishDiagnosticsParams) bool { return version(p) == 30 })
}

func TestIncrementalEditsApplyInOrder(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", "x = \"é😀\"; call(x)\n")
	// Turn "call(" into "comm_call(": the insertion point is after the
	// astral character (two UTF-16 units), 11 units into the line.
	at := protocol.Range{Start: protocol.Position{Line: 0, Character: 11}, End: protocol.Position{Line: 0, Character: 11}}
	tc.edit("main.py", 2, &at, "comm_")
	p := tc.waitDiags("main.py", 1, nil)
	if got := p.Diagnostics[0].Range.Start; got.Character != 11 {
		t.Fatalf("diagnostic starts at UTF-16 column %d, want 11", got.Character)
	}
}

func TestUTF8PositionEncoding(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{utf8: true})
	tc.open("main.py", "x = \"é😀\"; call(x)\n")
	at := protocol.Range{Start: protocol.Position{Line: 0, Character: 14}, End: protocol.Position{Line: 0, Character: 14}}
	tc.edit("main.py", 2, &at, "comm_")
	p := tc.waitDiags("main.py", 1, nil)
	if got := p.Diagnostics[0].Range.Start; got.Character != 14 {
		t.Fatalf("diagnostic starts at byte column %d, want 14", got.Character)
	}
}

// Closing a buffer hands the file back to the disk, and a file first saved
// from the editor joins the index even without file watching.
func TestCloseFallsBackToDisk(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc, "old.py": "comm_call(1)\n"}, clientOpts{})
	tc.waitDiags("old.py", 1, nil)
	tc.open("old.py", "comm_call(1)\ncomm_call(2)\n")
	tc.waitDiags("old.py", 2, nil)
	closeDoc(tc, "old.py")
	tc.waitDiags("old.py", 1, nil)

	tc.open("new.py", "comm_call(1)\n")
	tc.waitDiags("new.py", 1, nil)
	tc.write("new.py", "comm_call(1)\ncomm_call(2)\ncomm_call(3)\n")
	save := &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("new.py")}}
	if err := tc.server.DidSave(tc.ctx(), save); err != nil {
		t.Fatal(err)
	}
	closeDoc(tc, "new.py")
	tc.waitDiags("new.py", 3, nil)
}

func closeDoc(tc *testClient, name string) {
	tc.t.Helper()
	p := &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri(name)}}
	if err := tc.server.DidClose(tc.ctx(), p); err != nil {
		tc.t.Fatal(err)
	}
}

func TestPullDiagnostics(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{pull: true, refresh: true})
	tc.open("main.py", callerSrc)
	params := &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("main.py")}}
	rep, err := tc.server.Diagnostic(tc.ctx(), params)
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if err != nil || !ok || len(full.Items) != 1 || full.ResultID == nil {
		t.Fatalf("pull = %#v, %v; want a full report with one item", rep, err)
	}
	params.PreviousResultID = full.ResultID
	rep, err = tc.server.Diagnostic(tc.ctx(), params)
	if _, ok := rep.(*protocol.RelatedUnchangedDocumentDiagnosticReport); err != nil || !ok {
		t.Fatalf("second pull = %#v, %v; want unchanged", rep, err)
	}
	refreshes := func() int {
		return strings.Count(strings.Join(tc.requests, " "), protocol.MethodWorkspaceDiagnosticRefresh)
	}
	tc.waitFor("the refresh after the first check", func() bool { return refreshes() == 1 })
	tc.write("kernels.py", "def other():\n    pass\n")
	tc.notifyWatched("kernels.py", protocol.FileChangeTypeChanged)
	tc.waitFor("a refresh after the callee changed", func() bool { return refreshes() == 2 })
	rep, err = tc.server.Diagnostic(tc.ctx(), params)
	if full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport); err != nil || !ok || len(full.Items) != 0 {
		t.Fatalf("pull after the callee changed = %#v, %v; want an empty full report", rep, err)
	}
	if n := len(tc.pubs); n != 0 {
		t.Errorf("a pull client got %d pushed publications", n)
	}
}

func TestWatchedFilesFollowTheDisk(t *testing.T) {
	files := map[string]string{"kernels.py": kernelSrc, ".git/HEAD": "ref: refs/heads/main\n", "sub/.gitignore": "build/\n"}
	tc := session(t, files, clientOpts{watch: true})
	tc.waitFor("watcher registration", func() bool { return len(tc.regs) == 1 })
	opts := string(tc.regs[0].RegisterOptions)
	for _, glob := range []string{"**/*.py", "**/pyproject.toml", "**/.pallas-ls.toml"} {
		if !strings.Contains(opts, glob) {
			t.Errorf("registration %s lacks %s", opts, glob)
		}
	}
	tc.write("sub/new.py", "comm_call(1)\ncomm_call(2)\n")
	tc.write("sub/build/gen.py", "comm_call(3)\n")
	created := &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{URI: tc.uri("sub/new.py"), Type: protocol.FileChangeTypeCreated},
		{URI: tc.uri("sub/build/gen.py"), Type: protocol.FileChangeTypeCreated},
	}}
	if err := tc.server.DidChangeWatchedFiles(tc.ctx(), created); err != nil {
		t.Fatal(err)
	}
	tc.waitDiags("sub/new.py", 2, nil)
	tc.write("sub/new.py", "comm_call(1)\n")
	tc.notifyWatched("sub/new.py", protocol.FileChangeTypeChanged)
	tc.waitDiags("sub/new.py", 1, nil)
	if err := os.Remove(tc.path("sub/new.py")); err != nil {
		t.Fatal(err)
	}
	tc.notifyWatched("sub/new.py", protocol.FileChangeTypeDeleted)
	tc.waitDiags("sub/new.py", 0, nil)
	if n := tc.pubCount("sub/build/gen.py"); n != 0 {
		t.Errorf("a gitignored new file was checked (%d publications)", n)
	}
}

// groupChecker records which files each engine the server made was given.
type groupChecker struct {
	fakeChecker
	seen map[string]bool
}

func (g *groupChecker) Check(ctx context.Context, files []analysis.SourceFile, opts analysis.Options) (*analysis.Result, error) {
	g.mu.Lock()
	for _, f := range files {
		g.seen[f.Path] = true
	}
	g.mu.Unlock()
	return g.fakeChecker.Check(ctx, files, opts)
}

// TestEnginePerGroup: a file open outside the workspace folder is checked
// by an engine of its own, so checking it never evicts the folder's caches;
// the engine goes when its last file is closed.
func TestEnginePerGroup(t *testing.T) {
	var mu sync.Mutex
	var made []*groupChecker
	factory := func() checker {
		mu.Lock()
		defer mu.Unlock()
		g := &groupChecker{seen: map[string]bool{}}
		made = append(made, g)
		return g
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(made) }
	src := "def comm_kernel():\n    pass\ncomm_call(1)\n"
	tc := session(t, map[string]string{"a.py": "x = 1\n"}, clientOpts{}, withCheckerFactory(factory))
	tc.open("a.py", src)
	waitVersion(tc, "a.py", 1)
	tc.open("../elsewhere/b.py", src)
	waitVersion(tc, "../elsewhere/b.py", 1)
	for v := int32(2); v <= 5; v++ {
		tc.edit("a.py", v, nil, strings.Repeat("\n", int(v))+src)
		tc.edit("../elsewhere/b.py", v, nil, strings.Repeat("\n", int(v))+src)
	}
	waitVersion(tc, "a.py", 5)
	waitVersion(tc, "../elsewhere/b.py", 5)
	if n := count(); n != 2 {
		t.Fatalf("%d engines made for two groups", n)
	}
	mu.Lock()
	for i, g := range made {
		g.mu.Lock()
		if len(g.seen) != 1 {
			t.Errorf("engine %d saw files of more than one group: %v", i, g.seen)
		}
		g.mu.Unlock()
	}
	mu.Unlock()
	closeDoc(tc, "../elsewhere/b.py")
	tc.edit("a.py", 6, nil, src)
	waitVersion(tc, "a.py", 6)
	tc.open("../elsewhere/b.py", src)
	waitVersion(tc, "../elsewhere/b.py", 1)
	if n := count(); n != 3 {
		t.Errorf("reopening the outside file made %d engines in all, want a fresh third one", n)
	}
}

// A check cut short by its step budget is reported to the user once per
// session and logged each time where it stopped changes.
func TestStepBudgetSpentIsToldOnce(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", callerSrc+"# BUDGET_SPENT_A\n")
	tc.waitLog("step budget while running BUDGET_SPENT_A")
	tc.waitLog("showMessage: pallas-ls: this workspace is larger than the analysis's step budget")
	tc.edit("main.py", 2, nil, callerSrc+"# BUDGET_SPENT_B\n")
	tc.waitLog("step budget while running BUDGET_SPENT_B")
	tc.edit("main.py", 3, nil, callerSrc+"# BUDGET_SPENT_B\n\n")
	tc.edit("main.py", 4, nil, callerSrc)
	// A hover answers from the check of the newest version: all have run.
	hover := map[string]any{"textDocument": map[string]any{"uri": tc.uri("main.py")}, "position": map[string]any{"line": 0, "character": 0}}
	if code := tc.call(protocol.MethodTextDocumentHover, hover, nil); code != 0 {
		t.Fatalf("hover failed: %d", code)
	}
	shown, logged := 0, 0
	tc.record(func() {
		for _, l := range tc.logs {
			if strings.HasPrefix(l, "showMessage: pallas-ls: this workspace is larger") {
				shown++
			}
			if strings.Contains(l, "BUDGET_SPENT_B") {
				logged++
			}
		}
	})
	if shown != 1 || logged != 1 {
		t.Errorf("the budget message was shown %d times and the second stop logged %d times, want 1 and 1", shown, logged)
	}
}
