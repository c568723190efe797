package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

const (
	callerSrc = "from kernels import comm_kernel\n\ncomm_call(x)\n"
	kernelSrc = "def comm_kernel(x_ref, o_ref):\n    pltpu.async_remote_copy(x_ref, o_ref)\n"
)

func TestMalformedFramesAreAnsweredAndSkipped(t *testing.T) {
	rc := newRawClient(t)
	rc.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	rc.response("1")

	rc.send(`{"jsonrpc":"2.0","id":2,"method":`) // truncated JSON
	if msg := rc.response("null"); errorCode(msg) != "-32700" {
		t.Fatalf("broken JSON answered %s, want ParseError with null id", msg)
	}
	rc.send(`{"jsonrpc":"1.0","id":3,"method":"shutdown"}`) // not JSON-RPC 2.0
	if msg := rc.response("3"); errorCode(msg) != "-32600" {
		t.Fatalf("JSON-RPC 1.0 request answered %s, want InvalidRequest", msg)
	}
	rc.sendBytes([]byte("garbage without a colon\r\nX-Other: 1\r\n\r\n")) // a header block with no length
	rc.sendBytes([]byte("Content-Length: nope\r\n\r\n"))
	rc.send(`{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":5}}`)
	if msg := rc.response("4"); errorCode(msg) != "-32602" {
		t.Fatalf("bad hover params answered %s, want InvalidParams", msg)
	}
	rc.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":"oops"}}`)
	rc.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"bad":1}}}`)
	rc.send(`{"jsonrpc":"2.0","id":5,"method":"shutdown"}`)
	if msg := rc.response("5"); errorCode(msg) != "" {
		t.Fatalf("shutdown after bad input answered %s, want success", msg)
	}
	for _, want := range []string{"malformed frame", "malformed header line", "Content-Length", "textDocument/didOpen"} {
		if !strings.Contains(rc.stderr.String(), want) {
			t.Errorf("server log lacks %q:\n%s", want, rc.stderr.String())
		}
	}
}

func TestPanickingCheckerKeepsServing(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
	tc.edit("main.py", 2, nil, callerSrc+"PANIC_NOW\n")
	tc.waitLog("checker panicked")
	tc.edit("main.py", 3, nil, "comm_call(a)\ncomm_call(b)\n")
	tc.waitDiags("main.py", 2, nil)
}

func TestPanickingHandlerAnswersInternalError(t *testing.T) {
	boom := withRuleTitles(func(string) string { panic("title lookup exploded") })
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{}, boom)
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
	_, err := tc.server.Hover(tc.ctx(), hoverAt(tc, "main.py", 2, 2))
	if code := errCode(t, err); code != jsonrpc2.InternalError {
		t.Fatalf("hover with a panicking handler: %v, want InternalError", err)
	}
	tc.waitLog("panicked")
	if code := tc.call(protocol.MethodShutdown, nil, nil); code != 0 {
		t.Fatalf("shutdown after a handler panic: code %d", code)
	}
}

func TestChangeToUnknownDocumentIsIgnored(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.edit("never-opened.py", 2, nil, "comm_call(x)\n")
	tc.waitLog("not open")
	tc.open("main.py", callerSrc)
	tc.waitDiags("main.py", 1, nil)
}

// Positions past the end of a line or of the file clamp to it.
func TestOutOfRangePositionsClamp(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": kernelSrc}, clientOpts{})
	tc.open("main.py", "x = 1\n")
	far := protocol.Range{Start: protocol.Position{Line: 99, Character: 5}, End: protocol.Position{Line: 120, Character: 0}}
	tc.edit("main.py", 2, &far, "comm_call(y)\n")
	p := tc.waitDiags("main.py", 1, nil)
	if got := p.Diagnostics[0].Range.Start; got.Line != 1 || got.Character != 0 {
		t.Fatalf("text appended past the end landed at %+v, want 1:0", got)
	}
	wide := protocol.Range{Start: protocol.Position{Line: 0, Character: 500}, End: protocol.Position{Line: 0, Character: 2}}
	tc.edit("main.py", 3, &wide, "")
	p = tc.waitDiags("main.py", 1, func(p protocol.PublishDiagnosticsParams) bool { return p.Version.IsZero() || version(p) == 3 })
	if h, err := tc.server.Hover(tc.ctx(), hoverAt(tc, "main.py", 400, 9000)); err != nil || h != nil {
		t.Fatalf("hover far outside the file = %v, %v; want nothing", h, err)
	}
}

// A client that never answers server-to-client requests must not block
// indexing, diagnostics, requests or shutdown; one that refuses them
// neither.
func TestUnresponsiveClient(t *testing.T) {
	for _, mode := range []int{answerNever, answerError} {
		co := clientOpts{progress: true, watch: true, configuration: true, answer: mode}
		tc := session(t, map[string]string{"kernels.py": kernelSrc}, co, withClientTimeout(50e6))
		tc.open("main.py", callerSrc)
		tc.waitDiags("main.py", 1, nil)
		tc.waitFor("the three server requests", func() bool {
			return strings.Contains(strings.Join(tc.requests, " "), "client/registerCapability") &&
				strings.Contains(strings.Join(tc.requests, " "), "window/workDoneProgress/create") &&
				strings.Contains(strings.Join(tc.requests, " "), "workspace/configuration")
		})
		if h, err := tc.server.Hover(tc.ctx(), hoverAt(tc, "main.py", 2, 1)); err != nil || h == nil {
			t.Fatalf("hover with an unresponsive client = %v, %v", h, err)
		}
		if err := tc.shutdownExit(); err != nil {
			t.Fatalf("mode %d: Serve = %v", mode, err)
		}
		tc.mu.Lock()
		progress := tc.progress
		tc.mu.Unlock()
		if len(progress) > 0 {
			t.Errorf("mode %d: $/progress sent for a token the client never created: %v", mode, progress)
		}
	}
}

func hoverAt(tc *testClient, name string, line, char uint32) *protocol.HoverParams {
	return &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri(name)},
		Position:     protocol.Position{Line: line, Character: char},
	}}
}

func version(p protocol.PublishDiagnosticsParams) int32 {
	v, _ := p.Version.Get()
	return v
}

// TestDecodedStringsOwnTheirBytes: the codec decodes every message from a
// private copy, so decoded strings survive the stream reusing its buffer
// (protocol.Unmarshal decodes a union at the root, such as a code action
// list, in place).
func TestDecodedStringsOwnTheirBytes(t *testing.T) {
	buf := []byte(`[{"title":"Wrap the call in jax.shard_map","kind":"quickfix","isPreferred":true}]`)
	var got []protocol.CommandOrCodeAction
	if err := (lspCodec{}).Unmarshal(buf, &got); err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = 'x' // the next message lands in the same buffer
	}
	ca, ok := got[0].(*protocol.CodeAction)
	if !ok || ca.Title != "Wrap the call in jax.shard_map" {
		t.Fatalf("decoded %#v", got[0])
	}
}

// The context requests answer odd and malformed params without crashing
// or closing the connection: an inverted range, forged call hierarchy
// data, a status argument that is not a URI, params of the wrong type.
func TestContextRequestsWithOddParams(t *testing.T) {
	rc := newRawClient(t)
	rc.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	rc.response("1")
	rc.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	rc.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/odd.py","languageId":"python","version":1,"text":"comm_call(x)\n"}}}`)
	item := `{"name":"x","kind":12,"uri":"file:///tmp/odd.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"selectionRange":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"data":%s}`
	for id, tt := range map[string]struct{ msg, code string }{
		"10": {`"method":"textDocument/inlayHint","params":{"textDocument":{"uri":"file:///tmp/odd.py"},"range":{"start":{"line":9,"character":0},"end":{"line":0,"character":0}}}`, ""},
		"11": {`"method":"textDocument/codeLens","params":{"textDocument":{"uri":"file:///tmp/odd.py"}}`, ""},
		"12": {`"method":"callHierarchy/incomingCalls","params":{"item":` + fmt.Sprintf(item, `{"file":"/tmp/odd.py","start":0,"kernel":"?","reach":-9,"step":-9}`) + `}`, ""},
		"13": {`"method":"callHierarchy/incomingCalls","params":{"item":` + fmt.Sprintf(item, `"just a string"`) + `}`, ""},
		"14": {`"method":"textDocument/prepareCallHierarchy","params":{"textDocument":{"uri":"file:///tmp/odd.py"},"position":{"line":0,"character":3}}`, ""},
		"15": {`"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///tmp/odd.py"},"position":{"line":99,"character":99}}`, ""},
		"16": {`"method":"workspace/executeCommand","params":{"command":"pallas-ls.status","arguments":[42]}`, ""},
		"17": {`"method":"workspace/executeCommand","params":{"command":"nope"}`, "-32602"},
		"18": {`"method":"workspace/diagnostic","params":{"previousResultIds":[{"uri":"file:///nowhere.py","value":"x"}]}`, ""},
		"19": {`"method":"textDocument/inlayHint","params":{"textDocument":7}`, "-32602"},
	} {
		rc.send(`{"jsonrpc":"2.0","id":` + id + `,` + tt.msg + `}`)
		if msg := rc.response(id); errorCode(msg) != tt.code {
			t.Errorf("%s answered %s, want error code %q", tt.msg, msg, tt.code)
		}
	}
	rc.send(`{"jsonrpc":"2.0","id":20,"method":"shutdown"}`)
	if msg := rc.response("20"); errorCode(msg) != "" {
		t.Fatalf("shutdown answered %s", msg)
	}
	if strings.Contains(rc.stderr.String(), "panicked") {
		t.Errorf("a handler panicked:\n%s", rc.stderr.String())
	}
}
