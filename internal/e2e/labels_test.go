package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLabelsMatchCheck compares the two outputs of the context labels: the
// lines `pallas-ls check -v` prints and the inlay hints `pallas-ls serve`
// answers, on the example project and, when PALLAS_REALTREE names a
// checkout (e.g. /work/repos/tpu-inference), on that real tree too. Both
// come from the real binary; the LSP side speaks JSON-RPC over stdio like
// an editor.
func TestLabelsMatchCheck(t *testing.T) {
	bin := buildBinary(t)
	trees := map[string]string{"examples": filepath.Join(repoRoot(t), "examples")}
	if rt := os.Getenv("PALLAS_REALTREE"); rt != "" {
		if _, err := os.Stat(rt); err != nil {
			t.Fatalf("PALLAS_REALTREE=%s: %v", rt, err)
		}
		trees[filepath.Base(rt)] = rt
	}
	for name, dir := range trees {
		t.Run(name, func(t *testing.T) {
			fromCheck := checkLabels(t, bin, dir)
			if name == "examples" && len(fromCheck) < 4 {
				t.Fatalf("check -v printed %d labels on the examples, want every kernel call and shard_map:\n%s", len(fromCheck), strings.Join(fromCheck, "\n"))
			}
			fromLSP := lspLabels(t, bin, dir)
			slices.Sort(fromCheck)
			slices.Sort(fromLSP)
			if !slices.Equal(fromCheck, fromLSP) {
				t.Errorf("labels differ\nonly in check -v:\n%s\nonly in inlay hints:\n%s",
					strings.Join(minus(fromCheck, fromLSP), "\n"), strings.Join(minus(fromLSP, fromCheck), "\n"))
			}
			t.Logf("%s: %d labels agree", name, len(fromCheck))
		})
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pallas-ls")
	build := exec.Command("go", "build", "-o", bin, "./cmd/pallas-ls")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var labelLine = regexp.MustCompile(`^pallas-ls: context (.+):(\d+):\d+: (kernel|shard_map): (.*)$`)

// checkLabels runs `check -v` in dir and returns its labels as
// "file:line: text", the text as the editor shows it.
func checkLabels(t *testing.T, bin, dir string) []string {
	t.Helper()
	cmd := exec.Command(bin, "check", "-v", "--no-cache", "--exit-zero", ".")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("check -v: %v\n%s", err, stderr.String())
	}
	var out []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		m := labelLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := m[4]
		if m[3] == "shard_map" {
			text = "shard_map: " + text
		}
		out = append(out, fmt.Sprintf("%s:%s: %s", filepath.ToSlash(m[1]), m[2], text))
	}
	return out
}

// lspLabels serves dir and asks for the inlay hints of every Python file.
func lspLabels(t *testing.T, bin, dir string) []string {
	t.Helper()
	c := startServer(t, bin, dir)
	defer c.close()
	root, _ := filepath.Abs(dir)
	c.call("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(root),
		"workspaceFolders":      []map[string]string{{"uri": fileURI(root), "name": "root"}},
		"initializationOptions": map[string]any{"contextLabels": "inlayHints"},
		"capabilities":          map[string]any{"textDocument": map[string]any{"inlayHint": map[string]any{}}},
	})
	c.notify("initialized", map[string]any{})
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() != "." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".py") {
			return nil
		}
		var hints []struct {
			Position struct{ Line int } `json:"position"`
			Label    string             `json:"label"`
		}
		raw := c.call("textDocument/inlayHint", map[string]any{
			"textDocument": map[string]string{"uri": fileURI(path)},
			"range":        map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 1 << 30, "character": 0}},
		})
		if err := json.Unmarshal(raw, &hints); err != nil {
			t.Fatalf("inlayHint %s: %v: %s", path, err, raw)
		}
		rel, _ := filepath.Rel(root, path)
		for _, h := range hints {
			out = append(out, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), h.Position.Line+1, h.Label))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	return out
}

func fileURI(path string) string { return "file://" + filepath.ToSlash(path) }

// rpcClient is a minimal LSP client over a server's stdio: requests wait
// for their answer; the server's own requests get null (or, for
// workspace/configuration, no settings).
type rpcClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	mu    sync.Mutex
	next  int
	wait  map[int]chan json.RawMessage
	done  chan struct{}
	wmu   sync.Mutex
	stder strings.Builder
}

func startServer(t *testing.T, bin, dir string) *rpcClient {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Dir = dir
	c := &rpcClient{t: t, cmd: cmd, wait: map[int]chan json.RawMessage{}, done: make(chan struct{})}
	cmd.Stderr = &syncWriter{w: &c.stder, mu: &c.mu}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.in = in
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(bufio.NewReader(out))
	return c
}

type syncWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (c *rpcClient) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (c *rpcClient) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

// call sends a request and returns its result; an error answer fails the
// test. The whole session is bounded by two minutes per request.
func (c *rpcClient) call(method string, params any) json.RawMessage {
	c.t.Helper()
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan json.RawMessage, 1)
	c.wait[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"id": id, "method": method, "params": params})
	select {
	case res := <-ch:
		return res
	case <-c.done:
		c.t.Fatalf("%s: the server exited\n%s", method, c.stderr())
	case <-time.After(2 * time.Minute):
		c.t.Fatalf("%s: no answer in 2 minutes\n%s", method, c.stderr())
	}
	return nil
}

func (c *rpcClient) stderr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stder.String()
}

func (c *rpcClient) read(r *bufio.Reader) {
	defer close(c.done)
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
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		if n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(body, &msg) != nil {
			continue
		}
		switch {
		case msg.Method != "" && len(msg.ID) > 0: // a request from the server
			var result any
			if msg.Method == "workspace/configuration" {
				result = []any{nil}
			}
			c.send(map[string]any{"id": msg.ID, "result": result})
		case msg.Method == "" && len(msg.ID) > 0:
			id, _ := strconv.Atoi(string(msg.ID))
			c.mu.Lock()
			ch := c.wait[id]
			delete(c.wait, id)
			c.mu.Unlock()
			if ch == nil {
				continue
			}
			if len(msg.Error) > 0 && string(msg.Error) != "null" {
				ch <- json.RawMessage(`{"error":` + string(msg.Error) + `}`)
				continue
			}
			ch <- msg.Result
		}
	}
}

func (c *rpcClient) close() {
	c.in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() {
		<-ctx.Done()
		if ctx.Err() == context.DeadlineExceeded {
			c.cmd.Process.Kill()
		}
	}()
	c.cmd.Wait()
}
