package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/internal/config"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// messageHas waits for main.py's single diagnostic to mention want.
func messageHas(tc *testClient, name, want string) {
	tc.t.Helper()
	tc.waitDiags(name, 1, func(p protocol.PublishDiagnosticsParams) bool {
		msg, _ := p.Diagnostics[0].Message.(protocol.String)
		return strings.Contains(string(msg), want)
	})
}

func TestSettingsLayers(t *testing.T) {
	var answer atomic.Value
	answer.Store(`{"jaxVersion": "0.6"}`)
	co := clientOpts{
		configuration: true,
		initOptions:   `{"pallas-ls": {"jaxVersion": "0.5", "showInfo": false}}`,
		settings:      func() string { return answer.Load().(string) },
	}
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, co)
	tc.open("main.py", callerSrc)
	messageHas(tc, "main.py", "JAX 0.6") // workspace/configuration beats initializationOptions
	opts := tc.fake.lastOpts()
	if opts.ShowInfo || !strings.Contains(opts.JAXVersionReason, "editor setting") {
		t.Errorf("options = %+v; want showInfo off (initializationOptions) and the editor named as the version source", opts)
	}
	answer.Store(`{"jaxVersion": "0.7", "ignore": ["PAL103"]}`)
	if err := tc.server.DidChangeConfiguration(tc.ctx(), &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny("null")}); err != nil {
		t.Fatal(err)
	}
	messageHas(tc, "main.py", "JAX 0.7")
	if ign := tc.fake.lastOpts().Ignore; len(ign) != 1 || ign[0] != "PAL103" {
		t.Errorf("ignore = %v, want [PAL103]", ign)
	}
}

// Clients without workspace/configuration push settings in the
// notification itself.
func TestPushedSettings(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
	settings := protocol.LSPAny(`{"pallas-ls": {"ignore": ["PAL101"]}, "python": {"x": 1}}`)
	if err := tc.server.DidChangeConfiguration(tc.ctx(), &protocol.DidChangeConfigurationParams{Settings: settings}); err != nil {
		t.Fatal(err)
	}
	tc.waitDiags("main.py", 0, nil)
}

func TestConfigFileChangeRechecks(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{watch: true})
	tc.open("main.py", callerSrc)
	messageHas(tc, "main.py", "JAX 0.11")
	tc.write("pyproject.toml", "[tool.pallas-ls]\njax-version = \"0.4.31\"\n")
	tc.notifyWatched("pyproject.toml", protocol.FileChangeTypeCreated)
	messageHas(tc, "main.py", "JAX 0.4.31")
	if r := tc.fake.lastOpts().JAXVersionReason; !strings.Contains(r, "pyproject.toml") {
		t.Errorf("version reason %q does not name pyproject.toml", r)
	}
	tc.write("pyproject.toml", "[tool.pallas-ls]\njax-version = \"0.5.0\"\n")
	save := &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("pyproject.toml")}}
	if err := tc.server.DidSave(tc.ctx(), save); err != nil {
		t.Fatal(err)
	}
	messageHas(tc, "main.py", "JAX 0.5")
}

// A broken settings file is reported once and checking goes on with the
// defaults.
func TestBrokenSettingsFallBackToDefaults(t *testing.T) {
	files := map[string]string{"kernels.py": kernelSrc, "pyproject.toml": "[tool.pallas-ls]\njax-version = \"banana\"\n"}
	tc := session(t, files, clientOpts{})
	tc.open("main.py", callerSrc)
	messageHas(tc, "main.py", "JAX 0.11")
	tc.waitLog("showMessage: pallas-ls:")
	if r := tc.fake.lastOpts().JAXVersionReason; !strings.Contains(r, "unusable") {
		t.Errorf("version reason %q does not say the settings were unusable", r)
	}
}

// Each workspace folder is its own program with its own settings.
func TestMultiRootFolders(t *testing.T) {
	files := map[string]string{
		"a/pyproject.toml": "[tool.pallas-ls]\njax-version = \"0.5\"\n",
		"a/kernels.py":     kernelSrc, "a/main.py": callerSrc,
		"b/pyproject.toml": "[tool.pallas-ls]\njax-version = \"0.6\"\n",
		"b/kernels.py":     kernelSrc, "b/main.py": callerSrc,
		"c/kernels.py": kernelSrc, "c/main.py": callerSrc,
	}
	tc := newClient(t, files, clientOpts{noFolders: true})
	p := &protocol.InitializeParams{Capabilities: tc.capabilities()}
	p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{
		{URI: uri.File(tc.path("a")), Name: "a"}, {URI: uri.File(tc.path("b")), Name: "b"}})
	if _, err := tc.server.Initialize(tc.ctx(), p); err != nil {
		t.Fatal(err)
	}
	if err := tc.server.Initialized(tc.ctx(), &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	messageHas(tc, "a/main.py", "JAX 0.5")
	messageHas(tc, "b/main.py", "JAX 0.6")
	added := &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Added:   []protocol.WorkspaceFolder{{URI: uri.File(tc.path("c")), Name: "c"}},
		Removed: []protocol.WorkspaceFolder{{URI: uri.File(tc.path("b")), Name: "b"}},
	}}
	if err := tc.server.DidChangeWorkspaceFolders(tc.ctx(), added); err != nil {
		t.Fatal(err)
	}
	messageHas(tc, "c/main.py", "JAX 0.11")
	tc.waitDiags("b/main.py", 0, nil)
}

func TestIndexingProgress(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{progress: true})
	tc.waitFor("progress begin and end", func() bool {
		all := strings.Join(tc.progress, "\n")
		return strings.Contains(all, " begin ") && strings.Contains(all, " end 1 Python files")
	})
	tc.mu.Lock()
	first := tc.progress[0]
	tc.mu.Unlock()
	if !strings.Contains(first, "begin") {
		t.Fatalf("first progress notification is %q, want begin", first)
	}
}

func TestIndexingCancelledByClient(t *testing.T) {
	started := make(chan string, 1)
	hold := withIndexHook(func(ctx context.Context, dir string) {
		started <- dir
		<-ctx.Done()
	})
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{progress: true}, hold)
	<-started
	var token string
	tc.waitFor("progress begin", func() bool {
		for _, p := range tc.progress {
			if strings.Contains(p, " begin ") {
				token = strings.Fields(p)[0]
				return true
			}
		}
		return false
	})
	cancel := &protocol.WorkDoneProgressCancelParams{Token: protocol.String(token)}
	if err := tc.server.WorkDoneProgressCancel(tc.ctx(), cancel); err != nil {
		t.Fatal(err)
	}
	tc.waitFor("progress end after cancel", func() bool {
		return strings.Contains(strings.Join(tc.progress, "\n"), " end cancelled")
	})
	tc.open("main.py", "comm_call(x)\ndef comm_kernel(): pass\n")
	tc.waitDiags("main.py", 1, nil) // the server still serves open files
}

func TestParseSettings(t *testing.T) {
	tests := []struct {
		raw     string
		ok      bool
		version string
		wantErr bool
	}{
		{`{"pallas-ls": {"jaxVersion": "0.6"}}`, true, "0.6", false},
		{`{"jaxVersion": "0.7", "select": [], "ignore": [], "showInfo": true}`, true, "0.7", false}, // VS Code's flat shape
		{`{"python": {"analysis": 1}}`, false, "", false},                                           // someone else's
		{`null`, false, "", false},
		{``, false, "", false},
		{`[1, 2]`, false, "", true},
		{`{"pallas-ls": {"select": "PAL101"}}`, false, "", true},
	}
	for _, tt := range tests {
		us, ok, err := parseSettings(protocol.LSPAny(tt.raw))
		if ok != tt.ok || us.JAXVersion != tt.version || (err != nil) != tt.wantErr {
			t.Errorf("parseSettings(%s) = %+v, %v, %v", tt.raw, us, ok, err)
		}
	}
}

// TestNestedBrokenSettingsStillIndexes (issue 20, defect 8): one broken
// [tool.pallas-ls] deep in the tree (a test fixture) is shown to the user
// once, and the rest of the folder is still indexed and checked.
func TestNestedBrokenSettingsStillIndexes(t *testing.T) {
	files := map[string]string{
		"kernels.py":                        kernelSrc,
		"tests/fixtures/bad/pyproject.toml": "[tool.pallas-ls]\nselect = [\n",
		"tests/fixtures/bad/case.py":        "x = 1\n",
	}
	tc := session(t, files, clientOpts{})
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil) // the call into kernels.py: the folder was indexed
	tc.waitLog("showMessage: pallas-ls: " + tc.path("tests/fixtures/bad/pyproject.toml") + ":2:11: invalid TOML")
}

func TestPlatformEditorSetting(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".pallas-ls.toml"), []byte("platform = \"tpu\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ setting, want string }{{"", "tpu"}, {"gpu", "gpu"}, {"AUTO", ""}} {
		opts, err := folderOptions(config.NewResolver(), dir, userSettings{Platform: tc.setting})
		if err != nil || opts.Platform != tc.want {
			t.Errorf("platform setting %q: Platform = %q, %v; want %q", tc.setting, opts.Platform, err, tc.want)
		}
	}
	if _, err := folderOptions(config.NewResolver(), dir, userSettings{Platform: "cuda"}); err == nil {
		t.Error("platform \"cuda\" accepted")
	}
	us, ok, err := parseSettings([]byte(`{"platform": "gpu"}`))
	if !ok || err != nil || us.Platform != "gpu" {
		t.Errorf("parseSettings: %+v %v %v", us, ok, err)
	}
}

// The editors offer the values the server accepts: the VS Code
// extension's tpuChip enum is lowering.Chips, its contextLabels enum
// labelModes.
func TestEditorSettingValues(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "editors", "vscode", "package.json"))
	if err != nil {
		t.Skip("no VS Code extension:", err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	props := pkg.Contributes.Configuration.Properties
	if got, want := props["pallas-ls.tpuChip"].Enum, append([]string{""}, lowering.Chips...); !slices.Equal(got, want) {
		t.Errorf("package.json tpuChip enum = %q, want %q", got, want)
	}
	if got := props["pallas-ls.contextLabels"].Enum; !slices.Equal(got, labelModes) {
		t.Errorf("package.json contextLabels enum = %q, want %q", got, labelModes)
	}
	if got := props["pallas-ls.platform"].Enum; !slices.Equal(got, []string{"", "auto", "tpu", "gpu"}) {
		t.Errorf("package.json platform enum = %q", got)
	}
}
