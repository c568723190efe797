package lsp

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// TestOversizedBufferNotChecked (issue 20, defect 5): an open buffer
// above check's 20 MiB cap is not checked; the user is told once and the
// other files are still checked.
func TestOversizedBufferNotChecked(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	big := strings.Repeat("x = 1\n", workspace.MaxFileSize/6+1)
	tc.open("big.py", big)
	tc.waitLog("showMessage: pallas-ls: " + tc.path("big.py") + " is larger than 20 MiB; not checked")
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
	tc.edit("big.py", 2, nil, big+"y = 2\n")
	tc.edit("main.py", 2, nil, callerSrc+"comm_call(y)\n")
	tc.waitDiags("main.py", 2, nil)
	n := 0
	tc.mu.Lock()
	for _, l := range tc.logs {
		if strings.Contains(l, "big.py is larger") {
			n++
		}
	}
	tc.mu.Unlock()
	if n != 1 {
		t.Errorf("told %d times, want once", n)
	}
}

// TestWorkspaceBudget (issue 20, defect 5): a folder with more Python than
// the budget is indexed up to it; the user is told, and the server keeps
// answering.
func TestWorkspaceBudget(t *testing.T) {
	files := map[string]string{"kernels.py": kernelSrc}
	for i := range 40 {
		files[fmt.Sprintf("pkg/m%02d.py", i)] = "x = 1\n"
	}
	tc := session(t, files, clientOpts{}, withBudget(workspace.Budget{Files: 10}))
	tc.waitLog("showMessage: pallas-ls: workspace folder " + tc.root + ": more than 10 Python files; checking the first 10 found")
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
}

// TestWorkspaceFolderOfSlash (issue 20, defect 5): a workspace folder of /
// is indexed within the budget in bounded time, and requests are answered.
func TestWorkspaceFolderOfSlash(t *testing.T) {
	if testing.Short() {
		t.Skip("walks /")
	}
	tc := newClient(t, nil, clientOpts{noFolders: true}, withBudget(workspace.Budget{Files: 300, Bytes: 16 << 20, Entries: 200000}))
	p := &protocol.InitializeParams{Capabilities: tc.capabilities()}
	p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File("/"), Name: "root"}})
	start := time.Now()
	if _, err := tc.server.Initialize(tc.ctx(), p); err != nil {
		t.Fatal(err)
	}
	if err := tc.server.Initialized(tc.ctx(), &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	tc.waitLog("showMessage: pallas-ls: workspace folder /: ")
	tc.waitLog("indexed ")
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("indexing / took %v", d)
	}
	var hover *protocol.Hover
	tc.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri("nothing.py")}}}, &hover)
	if err := tc.shutdownExit(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// TestServerSetsMemoryLimit: after indexing, the server's soft heap limit
// follows the Python it holds, as check's does (at least 512 MiB).
func TestServerSetsMemoryLimit(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT is set")
	}
	prev := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(prev)
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.waitLog("indexed ")
	if got := debug.SetMemoryLimit(-1); got != 512<<20 {
		t.Errorf("soft memory limit %d, want 512 MiB for a small workspace", got)
	}
}
