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
