package hostile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lspSession drives `pallas-ls serve` over pipes: enough of a client to
// open a workspace, wait for diagnostics and shut down.
type lspSession struct {
	t    *testing.T
	c    *child
	in   io.WriteCloser
	msgs chan map[string]any
	seq  int
}

// newServe starts the server with its stdout read as LSP frames. The
// pipes are the child's own, so a write to a server that died fails
// instead of blocking the test.
func newServe(t *testing.T, folder string, env ...string) *lspSession {
	t.Helper()
	return newServeCap(t, folder, rssCap, env...)
}

// newServeCap is newServe with a memory cap of its own.
func newServeCap(t *testing.T, folder string, cap int64, env ...string) *lspSession {
	t.Helper()
	s := &lspSession{t: t, msgs: make(chan map[string]any, 1024)}
	var out io.Reader
	s.c = startCmd(t, folder, env, []string{"serve"}, func(c *child) {
		c.rssCap = cap
		var err error
		if s.in, err = c.cmd.StdinPipe(); err == nil {
			out, err = c.cmd.StdoutPipe()
		}
		if err != nil {
			t.Fatal(err)
		}
	})
	go s.read(bufio.NewReader(out))
	return s
}

// read parses frames until the server's stdout closes.
func (s *lspSession) read(r *bufio.Reader) {
	defer close(s.msgs)
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		body := make([]byte, max(n, 0))
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			s.msgs <- m
		}
	}
}

func (s *lspSession) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	body, _ := json.Marshal(msg)
	fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (s *lspSession) request(method string, params any) int {
	s.seq++
	s.send(map[string]any{"id": s.seq, "method": method, "params": params})
	return s.seq
}

func (s *lspSession) notify(method string, params any) {
	s.send(map[string]any{"method": method, "params": params})
}

// await reads messages until one satisfies ok, answering the server's
// own requests with null; false when the bound passes or output ends.
func (s *lspSession) await(d time.Duration, ok func(map[string]any) bool) bool {
	deadline := time.After(d)
	for {
		select {
		case m, open := <-s.msgs:
			if !open {
				return false
			}
			if id, isReq := m["id"]; isReq && m["method"] != nil {
				s.send(map[string]any{"id": id, "result": nil})
				continue
			}
			if ok(m) {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

func fileURI(path string) string { return (&url.URL{Scheme: "file", Path: path}).String() }

// initialize opens folder as the only workspace folder.
func (s *lspSession) initialize(folder string) {
	id := s.request("initialize", map[string]any{
		"processId": nil, "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": fileURI(folder), "name": "w"}},
	})
	if !s.await(runBound, func(m map[string]any) bool { return m["id"] == float64(id) }) {
		s.t.Fatalf("no answer to initialize\nstderr:\n%s", tail(s.c.stderr.String()))
	}
	s.notify("initialized", map[string]any{})
}

// diagnostics waits for a publication for path with a diagnostic whose
// message contains want.
func (s *lspSession) diagnostics(path, want string, d time.Duration) bool {
	return s.await(d, func(m map[string]any) bool {
		if m["method"] != "textDocument/publishDiagnostics" {
			return false
		}
		p, _ := m["params"].(map[string]any)
		if p["uri"] != fileURI(path) {
			return false
		}
		b, _ := json.Marshal(p["diagnostics"])
		return strings.Contains(string(b), want)
	})
}

// shutdown ends the session the way an editor does and returns how the
// process ended.
func (s *lspSession) shutdown() result {
	id := s.request("shutdown", nil)
	s.await(runBound, func(m map[string]any) bool { return m["id"] == float64(id) })
	s.notify("exit", nil)
	s.in.Close()
	return s.c.wait()
}
