package lsp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// exampleFiles reads the bundled example project (examples/), the tree
// the README walks through.
func exampleFiles(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..", "examples")
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = string(src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// exampleSession serves the example project with the real engine and waits
// for its first check (ring.py's PAL101).
func exampleSession(t *testing.T, co clientOpts, opts ...Option) *testClient {
	t.Helper()
	tc := session(t, exampleFiles(t), co, append([]Option{withChecker(analysis.NewEngine())}, opts...)...)
	tc.waitFor("the example project's findings", func() bool {
		p, ok := tc.lastPub("kernels/ring.py")
		return ok && len(p.Diagnostics) > 0
	})
	return tc
}

var wholeFile = protocol.Range{End: protocol.Position{Line: 100000}}

func inlayHints(t *testing.T, tc *testClient, name string) []protocol.InlayHint {
	t.Helper()
	hints, err := tc.server.InlayHint(tc.ctx(), &protocol.InlayHintParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri(name)}, Range: wholeFile})
	if err != nil {
		t.Fatalf("inlayHint %s: %v", name, err)
	}
	return hints
}

func codeLenses(t *testing.T, tc *testClient, name string) []protocol.CodeLens {
	t.Helper()
	lenses, err := tc.server.CodeLens(tc.ctx(), &protocol.CodeLensParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri(name)}})
	if err != nil {
		t.Fatalf("codeLens %s: %v", name, err)
	}
	return lenses
}

func hintTexts(hints []protocol.InlayHint) []string {
	var out []string
	for _, h := range hints {
		s, _ := h.Label.(protocol.String)
		out = append(out, string(s))
	}
	return out
}

func TestContextInlayHints(t *testing.T) {
	tc := exampleSession(t, clientOpts{inlay: true, lens: true, labelRefresh: true})
	hints := inlayHints(t, tc, "kernels/ring.py")
	want := "TPU · communicates on x · outside shard_map, shard_map(x manual)"
	if got := hintTexts(hints); len(got) != 1 || got[0] != want {
		t.Fatalf("ring.py hints = %q, want [%q]", got, want)
	}
	if p := hints[0].Position; p.Line != 35 || p.Character != uint32(len("    return pl.pallas_call(")) {
		t.Errorf("hint at %+v, want the end of line 36", p)
	}
	if got := hintTexts(inlayHints(t, tc, "tests/test_ring.py")); len(got) != 1 || got[0] != "shard_map: x manual" {
		t.Errorf("test_ring.py hints = %q, want the shard_map's axes", got)
	}
	if got := hintTexts(inlayHints(t, tc, "train.py")); !slices.Contains(got, "shard_map: data manual, model auto") {
		t.Errorf("train.py hints = %q, want partly_manual's shard_map", got)
	}
	if l := codeLenses(t, tc, "kernels/ring.py"); len(l) != 0 {
		t.Errorf("a client with inlay hints got %d code lenses in auto mode", len(l))
	}
	// A range that excludes the call excludes its hint.
	none, _ := tc.server.InlayHint(tc.ctx(), &protocol.InlayHintParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("kernels/ring.py")},
		Range:        protocol.Range{End: protocol.Position{Line: 5}}})
	if len(none) != 0 {
		t.Errorf("hints outside the range: %q", hintTexts(none))
	}

	// The labels follow the findings: without the test's shard_map the
	// ring kernel is reached through sharded_step's, and the client is
	// asked to refresh.
	tc.open("tests/test_ring.py", "import jax\n")
	tc.waitFor("an inlay hint refresh", func() bool {
		return slices.Contains(tc.requests, protocol.MethodWorkspaceInlayHintRefresh)
	})
	if got := hintTexts(inlayHints(t, tc, "tests/test_ring.py")); len(got) != 0 {
		t.Errorf("emptied test_ring.py still has hints %q", got)
	}
	if got := hintTexts(inlayHints(t, tc, "train.py")); !slices.Contains(got, "shard_map: x manual") {
		t.Errorf("train.py hints after the edit = %q, want sharded_step's shard_map", got)
	}
}

func TestContextCodeLensFallback(t *testing.T) {
	tc := exampleSession(t, clientOpts{lens: true})
	lenses := codeLenses(t, tc, "kernels/local.py")
	if len(lenses) != 1 || !strings.HasPrefix(lenses[0].Command.Title, "TPU · local · ") || lenses[0].Range.Start.Line != 12 {
		t.Fatalf("local.py lenses = %+v, want one TPU label on line 13", lenses)
	}
	if lenses[0].Command.Command != "" {
		t.Errorf("the lens runs %q; labels are read, not clicked", lenses[0].Command.Command)
	}
	if h := inlayHints(t, tc, "kernels/local.py"); len(h) != 0 {
		t.Errorf("a client without inlay hints got hints %q in auto mode", hintTexts(h))
	}
}

func TestContextLabelsSetting(t *testing.T) {
	for _, tt := range []struct {
		mode          string
		hints, lenses bool
	}{
		{"off", false, false}, {"both", true, true}, {"codeLens", false, true}, {"inlayHints", true, false},
		{"sideways", true, false}, // unknown: auto, with a warning
	} {
		t.Run(tt.mode, func(t *testing.T) {
			tc := exampleSession(t, clientOpts{inlay: true, lens: true, initOptions: `{"contextLabels": "` + tt.mode + `"}`})
			if got := len(inlayHints(t, tc, "kernels/ring.py")) > 0; got != tt.hints {
				t.Errorf("hints shown = %v, want %v", got, tt.hints)
			}
			if got := len(codeLenses(t, tc, "kernels/ring.py")) > 0; got != tt.lenses {
				t.Errorf("lenses shown = %v, want %v", got, tt.lenses)
			}
		})
	}
}

// walk follows incoming calls from item until an item without callers
// (the entry) and returns the names on the way.
func walk(t *testing.T, tc *testClient, item protocol.CallHierarchyItem) []string {
	t.Helper()
	var names []string
	for range 50 {
		calls, err := tc.server.IncomingCalls(tc.ctx(), &protocol.CallHierarchyIncomingCallsParams{Item: item})
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) == 0 {
			return names
		}
		if len(calls) != 1 || len(calls[0].FromRanges) != 1 {
			t.Fatalf("a path step has %d callers", len(calls))
		}
		item = calls[0].From
		names = append(names, item.Name)
	}
	t.Fatal("the call hierarchy does not end")
	return nil
}

func TestCallHierarchy(t *testing.T) {
	tc := exampleSession(t, clientOpts{})
	items, err := tc.server.PrepareCallHierarchy(tc.ctx(), &protocol.CallHierarchyPrepareParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("kernels/ring.py")},
			Position:     protocol.Position{Line: 35, Character: 14}}})
	if err != nil || len(items) != 1 {
		t.Fatalf("prepareCallHierarchy = %v, %v; want the kernel call", items, err)
	}
	if items[0].Name != "kernel _ring_kernel" || !strings.Contains(*items[0].Detail, "communicates on x") {
		t.Errorf("item = %q (%q)", items[0].Name, *items[0].Detail)
	}
	calls, err := tc.server.IncomingCalls(tc.ctx(), &protocol.CallHierarchyIncomingCallsParams{Item: items[0]})
	if err != nil || len(calls) != 2 {
		t.Fatalf("incomingCalls = %d, %v; want one per context (shard_map, outside)", len(calls), err)
	}
	var paths []string
	for _, c := range calls {
		names := append([]string{c.From.Name}, walk(t, tc, c.From)...)
		paths = append(paths, *c.From.Detail+": "+strings.Join(names, " <- "))
	}
	want := []string{
		// The shortest path of each context: the eager test's call inside
		// its assert is shorter than train.py's.
		"outside shard_map: `ring_all_reduce(x)` <- test test_ring_eager",
		"shard_map(x manual): `f(x)` <- test test_ring_sharded",
	}
	if !slices.Equal(paths, want) {
		t.Errorf("paths:\n%s\nwant:\n%s", strings.Join(paths, "\n"), strings.Join(want, "\n"))
	}
	// Away from kernel calls there is no hierarchy.
	if items, _ := tc.server.PrepareCallHierarchy(tc.ctx(), &protocol.CallHierarchyPrepareParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("kernels/ring.py")},
			Position:     protocol.Position{Line: 0}}}); len(items) != 0 {
		t.Errorf("hierarchy at line 1: %v", items)
	}
	// Forged steps and contexts are answered with nothing.
	for _, data := range []string{`{"file": %q, "start": %d, "kernel": %q, "reach": 0, "step": -7}`,
		`{"file": %q, "start": %d, "kernel": %q, "reach": 99, "step": 0}`} {
		forged := items[0]
		var ref hierarchyRef
		_ = json.Unmarshal(items[0].Data, &ref)
		forged.Data = protocol.LSPAny(fmt.Sprintf(data, ref.File, ref.Start, ref.Kernel))
		if calls, err := tc.server.IncomingCalls(tc.ctx(), &protocol.CallHierarchyIncomingCallsParams{Item: forged}); err != nil || len(calls) != 0 {
			t.Errorf("incoming calls of %s = %v, %v", forged.Data, calls, err)
		}
	}
	// A foreign item is answered with nothing, not an error.
	foreign := items[0]
	foreign.Data = protocol.LSPAny(`[1, 2]`)
	if calls, err := tc.server.IncomingCalls(tc.ctx(), &protocol.CallHierarchyIncomingCallsParams{Item: foreign}); err != nil || len(calls) != 0 {
		t.Errorf("incoming calls of a foreign item = %v, %v", calls, err)
	}
	// An item whose kernel call was edited away has no callers.
	tc.open("kernels/ring.py", "import jax\n")
	if calls, err := tc.server.IncomingCalls(tc.ctx(), &protocol.CallHierarchyIncomingCallsParams{Item: items[0]}); err != nil || len(calls) != 0 {
		t.Errorf("incoming calls of a deleted call = %v, %v", calls, err)
	}
}

func TestGoToShardMap(t *testing.T) {
	tc := exampleSession(t, clientOpts{})
	res, err := tc.server.Definition(tc.ctx(), &protocol.DefinitionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("kernels/local.py")},
			Position:     protocol.Position{Line: 12, Character: 12}}})
	if err != nil {
		t.Fatal(err)
	}
	locs, ok := res.(protocol.LocationSlice)
	if !ok || len(locs) == 0 {
		t.Fatalf("definition = %#v, want the shard_map of partly_manual", res)
	}
	found := false
	for _, l := range locs {
		if l.URI == tc.uri("train.py") && l.Range.Start.Line == 25 {
			found = true
		}
	}
	if !found {
		t.Errorf("definition = %+v, want train.py:26 (partly_manual's shard_map)", locs)
	}
	none, err := tc.server.Definition(tc.ctx(), &protocol.DefinitionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("kernels/local.py")},
			Position:     protocol.Position{Line: 0}}})
	if err != nil || none != nil {
		t.Errorf("definition away from kernel calls = %#v, %v; want nothing", none, err)
	}
}

func TestWorkspaceDiagnostic(t *testing.T) {
	tc := session(t, exampleFiles(t), clientOpts{pull: true}, withChecker(analysis.NewEngine()))
	report, err := tc.server.DiagnosticWorkspace(tc.ctx(), &protocol.WorkspaceDiagnosticParams{})
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]*protocol.WorkspaceFullDocumentDiagnosticReport{}
	var prev []protocol.PreviousResultId
	for _, it := range report.Items {
		f, ok := it.(*protocol.WorkspaceFullDocumentDiagnosticReport)
		if !ok {
			t.Fatalf("first report has a %T", it)
		}
		path, _ := uriPath(f.URI)
		rel, _ := filepath.Rel(tc.root, path)
		full[filepath.ToSlash(rel)] = f
		prev = append(prev, protocol.PreviousResultId{URI: f.URI, Value: *f.ResultID})
	}
	for _, name := range []string{"kernels/ring.py", "kernels/local.py", "kernels/legacy.py"} {
		if f := full[name]; f == nil || len(f.Items) == 0 {
			t.Errorf("workspace report lacks the findings of %s (not open)", name)
		}
	}
	again, err := tc.server.DiagnosticWorkspace(tc.ctx(), &protocol.WorkspaceDiagnosticParams{PreviousResultIds: prev})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range again.Items {
		if _, ok := it.(*protocol.WorkspaceUnchangedDocumentDiagnosticReport); !ok {
			t.Errorf("unchanged file reported as %T", it)
		}
	}
	// A file that lost its findings is reported, with none.
	tc.open("kernels/legacy.py", "import jax\n")
	after, err := tc.server.DiagnosticWorkspace(tc.ctx(), &protocol.WorkspaceDiagnosticParams{PreviousResultIds: prev})
	if err != nil {
		t.Fatal(err)
	}
	cleared := false
	for _, it := range after.Items {
		if f, ok := it.(*protocol.WorkspaceFullDocumentDiagnosticReport); ok && f.URI == tc.uri("kernels/legacy.py") {
			cleared = len(f.Items) == 0 && f.Version != nil && *f.Version == 1
		}
	}
	if !cleared {
		t.Errorf("legacy.py emptied: not reported as an empty full report of version 1")
	}
}

func TestWorkspaceDiagnosticCapability(t *testing.T) {
	tc := newClient(t, nil, clientOpts{pull: true}, WithVersion("1.2.3"))
	res := tc.initialize()
	dp, ok := res.Capabilities.DiagnosticProvider.(*protocol.DiagnosticOptions)
	if !ok || !dp.WorkspaceDiagnostics {
		t.Errorf("diagnosticProvider = %#v, want workspace diagnostics", res.Capabilities.DiagnosticProvider)
	}
	if v, ok := res.ServerInfo.Version.Get(); res.ServerInfo.Name != "pallas-ls" || !ok || v != "1.2.3" {
		t.Errorf("serverInfo = %+v, want pallas-ls 1.2.3", res.ServerInfo)
	}
	if res.Capabilities.InlayHintProvider == nil || res.Capabilities.CodeLensProvider == nil ||
		res.Capabilities.CallHierarchyProvider == nil || res.Capabilities.DefinitionProvider == nil ||
		!slices.Contains(res.Capabilities.ExecuteCommandProvider.Commands, statusCommand) {
		t.Errorf("capabilities lack context features: %+v", res.Capabilities)
	}
}

func TestStatusCommand(t *testing.T) {
	tc := exampleSession(t, clientOpts{}, WithVersion("9.9"))
	ask := func(args ...string) status {
		t.Helper()
		var raw []protocol.LSPAny
		for _, a := range args {
			b, _ := json.Marshal(a)
			raw = append(raw, protocol.LSPAny(b))
		}
		out, err := tc.server.ExecuteCommand(tc.ctx(), &protocol.ExecuteCommandParams{Command: statusCommand, Arguments: raw})
		if err != nil {
			t.Fatal(err)
		}
		var st status
		if err := json.Unmarshal(out, &st); err != nil {
			t.Fatalf("status %s: %v", out, err)
		}
		return st
	}
	st := ask(string(tc.uri("train.py")))
	if st.Server != "pallas-ls 9.9" || st.JAXVersion != "0.11" || !strings.Contains(st.JAXVersionReason, "jax pin") ||
		st.Platform != "tpu" || !strings.Contains(st.PlatformReason, "jax[tpu]") || st.Folder != tc.root || st.Files == 0 || st.ContextLabels != "auto" {
		t.Errorf("status = %+v", st)
	}
	if st2 := ask(); st2 != st {
		t.Errorf("status without a file = %+v, want the only folder's %+v", st2, st)
	}
	if _, err := tc.server.ExecuteCommand(tc.ctx(), &protocol.ExecuteCommandParams{Command: "rm -rf"}); err == nil {
		t.Error("an unknown command was accepted")
	}
}

func TestPlatformAndChipSettings(t *testing.T) {
	opts, err := folderOptions(newProject().resolver, t.TempDir(), userSettings{Platform: "TPU", TPUChip: "v5e"})
	if err != nil || opts.Platform != "tpu" || opts.TPUChip != "v5e" {
		t.Errorf("options = %q, %q, %v; want tpu, v5e", opts.Platform, opts.TPUChip, err)
	}
	if opts, err := folderOptions(newProject().resolver, t.TempDir(), userSettings{Platform: "auto"}); err != nil || opts.Platform != "" {
		t.Errorf("auto: platform %q, %v", opts.Platform, err)
	}
	for _, bad := range []userSettings{{Platform: "cpu"}, {TPUChip: "v99"}} {
		if _, err := folderOptions(newProject().resolver, t.TempDir(), bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	us, ok, err := parseSettings(protocol.LSPAny(`{"platform": "gpu", "tpuChip": "v6e", "contextLabels": "codeLens"}`))
	if !ok || err != nil || us.Platform != "gpu" || us.TPUChip != "v6e" || us.ContextLabels != "codeLens" {
		t.Errorf("parseSettings = %+v, %v, %v", us, ok, err)
	}
}

func TestStatusShowsPlatformSetting(t *testing.T) {
	tc := exampleSession(t, clientOpts{initOptions: `{"platform": "tpu", "tpuChip": "v5p"}`})
	out, err := tc.server.ExecuteCommand(tc.ctx(), &protocol.ExecuteCommandParams{Command: statusCommand})
	if err != nil {
		t.Fatal(err)
	}
	var st status
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	if st.Platform != "tpu" || !strings.Contains(st.PlatformReason, "editor setting") || st.TPUChip != "v5p" {
		t.Errorf("status = %+v, want tpu from the editor setting, chip v5p", st)
	}
}

const multiJitSrc = `import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import NamedSharding, PartitionSpec as P


def add_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


mesh = jax.make_mesh((jax.device_count(),), ("x",))


@functools.partial(jax.jit, in_shardings=NamedSharding(mesh, P("x")))
def step(x):
    return pl.pallas_call(add_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


if __name__ == "__main__":
    step(jnp.ones((8, 128)))
`

// Under a multi-device jit, "go to the shard_map" goes to the jit.
func TestGoToMultiDeviceJit(t *testing.T) {
	tc := session(t, map[string]string{"main.py": multiJitSrc}, clientOpts{inlay: true}, withChecker(analysis.NewEngine()))
	tc.waitDiags("main.py", 1, nil)
	if got := hintTexts(inlayHints(t, tc, "main.py")); len(got) != 1 || got[0] != "TPU · local · multi-device jit" {
		t.Errorf("hints = %q", got)
	}
	res, err := tc.server.Definition(tc.ctx(), &protocol.DefinitionParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("main.py")},
			Position:     protocol.Position{Line: 18, Character: 14}}})
	if err != nil {
		t.Fatal(err)
	}
	locs, _ := res.(protocol.LocationSlice)
	if len(locs) != 1 || locs[0].Range.Start.Line != 16 || locs[0].Range.Start.Character != 1 {
		t.Errorf("definition = %#v, want the jit decorator on line 17", res)
	}
}
