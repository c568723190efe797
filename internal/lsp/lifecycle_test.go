package lsp

import (
	"errors"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

func TestInitializeNegotiatesCapabilities(t *testing.T) {
	tests := []struct {
		name     string
		co       clientOpts
		encoding protocol.PositionEncodingKind
		pull     bool
	}{
		{"defaults", clientOpts{}, protocol.PositionEncodingKindUTF16, false},
		{"utf-8 offered", clientOpts{utf8: true}, protocol.PositionEncodingKindUTF8, false},
		{"pull client", clientOpts{pull: true}, protocol.PositionEncodingKindUTF16, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := newClient(t, nil, tt.co)
			res := tc.initialize()
			caps := res.Capabilities
			if caps.PositionEncoding != tt.encoding {
				t.Errorf("positionEncoding = %q, want %q", caps.PositionEncoding, tt.encoding)
			}
			if got := caps.DiagnosticProvider != nil; got != tt.pull {
				t.Errorf("diagnosticProvider present = %v, want %v", got, tt.pull)
			}
			sync, ok := caps.TextDocumentSync.(*protocol.TextDocumentSyncOptions)
			if !ok || sync.Change == nil || *sync.Change != protocol.TextDocumentSyncKindIncremental {
				t.Errorf("textDocumentSync = %#v, want incremental", caps.TextDocumentSync)
			}
			if res.ServerInfo.Name != "pallas-ls" {
				t.Errorf("serverInfo.name = %q", res.ServerInfo.Name)
			}
		})
	}
}

func TestRequestBeforeInitialize(t *testing.T) {
	tc := newClient(t, nil, clientOpts{})
	if code := tc.call(protocol.MethodTextDocumentHover, map[string]any{}, nil); code != jsonrpc2.ServerNotInitialized {
		t.Fatalf("hover before initialize: code %d, want ServerNotInitialized", code)
	}
	if code := tc.call(protocol.MethodShutdown, nil, nil); code != jsonrpc2.ServerNotInitialized {
		t.Fatalf("shutdown before initialize: code %d, want ServerNotInitialized", code)
	}
	tc.initialize() // still possible afterwards
	if code := tc.call(protocol.MethodInitialize, map[string]any{"capabilities": map[string]any{}}, nil); code != jsonrpc2.InvalidRequest {
		t.Fatalf("second initialize: code %d, want InvalidRequest", code)
	}
}

func TestUnknownMethod(t *testing.T) {
	tc := session(t, nil, clientOpts{})
	if code := tc.call("pallas/doesNotExist", map[string]any{"x": 1}, nil); code != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown request: code %d, want MethodNotFound", code)
	}
	// An unknown notification is ignored; the session goes on.
	if err := tc.conn.Notify(tc.ctx(), "pallas/whatever", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if code := tc.call("$/unknownRequest", nil, nil); code != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown $/ request: code %d, want MethodNotFound", code)
	}
}

func TestShutdownThenExit(t *testing.T) {
	tc := session(t, nil, clientOpts{})
	err := tc.shutdownExit()
	if err != nil || ExitCode(err) != 0 {
		t.Fatalf("Serve = %v (exit code %d), want nil and 0", err, ExitCode(err))
	}
}

func TestRequestsAfterShutdownRefused(t *testing.T) {
	tc := session(t, nil, clientOpts{})
	if err := tc.server.Shutdown(tc.ctx()); err != nil {
		t.Fatal(err)
	}
	if code := tc.call(protocol.MethodTextDocumentHover, map[string]any{}, nil); code != jsonrpc2.InvalidRequest {
		t.Fatalf("hover after shutdown: code %d, want InvalidRequest", code)
	}
	if err := tc.server.Exit(tc.ctx()); err != nil {
		t.Fatal(err)
	}
	if err := tc.serveResult(); err != nil {
		t.Fatalf("Serve = %v after shutdown and exit", err)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	tc := session(t, nil, clientOpts{})
	if err := tc.server.Exit(tc.ctx()); err != nil {
		t.Fatal(err)
	}
	err := tc.serveResult()
	if !errors.Is(err, ErrNoShutdown) || ExitCode(err) != 1 {
		t.Fatalf("Serve = %v (exit code %d), want ErrNoShutdown and 1", err, ExitCode(err))
	}
}

func TestEndOfInputWithoutShutdown(t *testing.T) {
	tc := session(t, nil, clientOpts{})
	tc.conn.Close()
	if err := tc.serveResult(); ExitCode(err) != 1 {
		t.Fatalf("Serve = %v after the client vanished, want exit code 1", err)
	}
}

func TestLogsGoToStderrAndClient(t *testing.T) {
	tc := session(t, nil, clientOpts{})
	tc.waitLog("indexed")
	if !strings.Contains(tc.stderr.String(), "indexed") {
		t.Fatalf("stderr lacks the indexing log line:\n%s", tc.stderr.String())
	}
}

// A cancelled request is answered with RequestCancelled. The request waits
// for a check that blocks until cancelled, so the cancellation is what
// ends it.
func TestCancelRequest(t *testing.T) {
	rc := newRawClient(t)
	rc.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	rc.response("1")
	rc.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	rc.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":` +
		`{"uri":"file:///tmp/pallas-cancel/a.py","languageId":"python","version":1,"text":"BLOCK_CHECK\n"}}}`)
	rc.send(`{"jsonrpc":"2.0","id":"hover-1","method":"textDocument/hover","params":` +
		`{"textDocument":{"uri":"file:///tmp/pallas-cancel/a.py"},"position":{"line":0,"character":0}}}`)
	rc.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"hover-1"}}`)
	msg := rc.response(`"hover-1"`)
	if code := errorCode(msg); code != "-32800" {
		t.Fatalf("cancelled hover answered %s, want error -32800", msg)
	}
}
