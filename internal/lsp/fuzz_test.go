package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// FuzzServe: arbitrary bytes on the server's input (frames, JSON, garbage)
// never crash it or hang it; it returns once the input ends.
func FuzzServe(f *testing.F) {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	f.Add([]byte(frame(init) + frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.py"},"position":{"line":99,"character":-1}}}`) +
		frame(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`) + frame(`{"jsonrpc":"2.0","method":"exit"}`)))
	// The context requests with odd params: ranges past the end, forged
	// call hierarchy data, an unknown command.
	f.Add([]byte(frame(init) + frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.py","languageId":"python","version":1,"text":"comm_call(x)\n"}}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/inlayHint","params":{"textDocument":{"uri":"file:///tmp/a.py"},"range":{"start":{"line":9,"character":0},"end":{"line":0,"character":0}}}}`) +
		frame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/codeLens","params":{"textDocument":{"uri":"file:///tmp/a.py"}}}`) +
		frame(`{"jsonrpc":"2.0","id":4,"method":"callHierarchy/incomingCalls","params":{"item":{"name":"x","kind":12,"uri":"file:///tmp/a.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"selectionRange":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"data":{"file":"/tmp/a.py","start":0,"kernel":"?","reach":-9,"step":-9}}}}`) +
		frame(`{"jsonrpc":"2.0","id":5,"method":"textDocument/prepareCallHierarchy","params":{"textDocument":{"uri":"file:///tmp/a.py"},"position":{"line":0,"character":3}}}`) +
		frame(`{"jsonrpc":"2.0","id":6,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///tmp/a.py"},"position":{"line":0,"character":3}}}`) +
		frame(`{"jsonrpc":"2.0","id":7,"method":"workspace/executeCommand","params":{"command":"pallas-ls.status","arguments":[42]}}`) +
		frame(`{"jsonrpc":"2.0","id":8,"method":"workspace/diagnostic","params":{"previousResultIds":[{"uri":"file:///nowhere.py","value":"x"}]}}`) +
		frame(`{"jsonrpc":"2.0","id":9,"method":"shutdown"}`) + frame(`{"jsonrpc":"2.0","method":"exit"}`)))
	f.Add([]byte("Content-Length: 5\r\n\r\n{bad}"))
	f.Add([]byte("Content-Length: 99999999\r\n\r\n{}"))
	f.Add([]byte(frame(init) + frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.py","languageId":"python","version":1,"text":"import jax\n"}}}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			done <- Serve(ctx, bytes.NewReader(data), io.Discard, io.Discard, withChecker(&fakeChecker{}),
				WithDebounce(time.Millisecond), withClientTimeout(100*time.Millisecond))
		}()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Fatal("Serve did not return after its input ended")
		}
	})
}
