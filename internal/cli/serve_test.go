package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// lspFrame wraps a JSON-RPC message in LSP's Content-Length framing.
func lspFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestServeSmoke drives `pallas-ls serve --stdio` through a whole session
// (initialize, shutdown, exit) to check the wiring; internal/lsp tests the
// server itself.
func TestServeSmoke(t *testing.T) {
	in := strings.Join([]string{
		lspFrame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`),
		lspFrame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`),
		lspFrame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`),
		lspFrame(`{"jsonrpc":"2.0","method":"exit"}`),
	}, "")
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(in), stdout: &stdout, stderr: &stderr,
		workDir: t.TempDir(), getenv: noEnv}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code := run(ctx, e, []string{"serve", "--stdio"})
	if code != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"capabilities"`) {
		t.Errorf("no initialize result on stdout:\n%s", stdout.String())
	}
}
