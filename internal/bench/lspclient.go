package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// lspClient speaks LSP JSON-RPC with Content-Length framing to a server
// subprocess. A reader goroutine answers the server's own requests at
// once (configuration with nulls, everything else with a null result),
// hands responses to the waiting caller, and queues notifications with
// the time they arrived, so latencies are measured at the client.
type lspClient struct {
	ctx    context.Context // the run's: cancelling it (Ctrl-C) ends every wait
	cmd    *exec.Cmd
	in     io.WriteCloser
	stderr *ring

	wmu    sync.Mutex
	nextID int

	mu      sync.Mutex
	pending map[string]chan *rpcMsg
	inbox   []event
	signal  chan struct{}
	done    chan struct{}
	readErr error
}

type rpcMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// event is a notification from the server and when it was read.
type event struct {
	at     time.Time
	method string
	params json.RawMessage
}

// startServer runs `bin serve` in dir.
func startServer(ctx context.Context, bin, dir string, env []string) (*lspClient, error) {
	cmd := exec.Command(bin, "serve")
	cmd.Dir, cmd.Env = dir, env
	c := &lspClient{ctx: ctx, cmd: cmd, stderr: newRing(4096), pending: map[string]chan *rpcMsg{},
		signal: make(chan struct{}, 1), done: make(chan struct{})}
	cmd.Stderr = c.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c.in = in
	go c.readLoop(bufio.NewReaderSize(out, 1<<16))
	return c, nil
}

func (c *lspClient) pid() int { return c.cmd.Process.Pid }

func (c *lspClient) readLoop(r *bufio.Reader) {
	defer close(c.done)
	for {
		msg, err := readFrame(r)
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.mu.Unlock()
			return
		}
		c.dispatch(msg, time.Now())
	}
}

// readFrame reads one Content-Length framed message.
func readFrame(r *bufio.Reader) (*rpcMsg, error) {
	hdr, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(hdr.Get("Content-Length"))
	if err != nil {
		return nil, fmt.Errorf("bad Content-Length header %q", hdr.Get("Content-Length"))
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	msg := &rpcMsg{}
	if err := json.Unmarshal(body, msg); err != nil {
		return nil, fmt.Errorf("bad message from the server: %v", err)
	}
	return msg, nil
}

func (c *lspClient) dispatch(msg *rpcMsg, at time.Time) {
	switch {
	case msg.Method != "" && msg.ID != nil:
		c.answer(msg)
	case msg.Method != "":
		c.mu.Lock()
		c.inbox = append(c.inbox, event{at, msg.Method, msg.Params})
		c.mu.Unlock()
		select {
		case c.signal <- struct{}{}:
		default:
		}
	default:
		c.mu.Lock()
		ch := c.pending[string(msg.ID)]
		delete(c.pending, string(msg.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- msg
		}
	}
}

// answer replies to a server-to-client request: no settings, and yes to
// progress tokens and registrations.
func (c *lspClient) answer(msg *rpcMsg) {
	var result any
	if msg.Method == "workspace/configuration" {
		var p struct{ Items []json.RawMessage }
		_ = json.Unmarshal(msg.Params, &p)
		result = make([]any, len(p.Items))
	}
	_ = c.write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
}

func (c *lspClient) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

// notify sends a notification.
func (c *lspClient) notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits at most timeout for its result.
func (c *lspClient) call(method string, params any, timeout time.Duration) (json.RawMessage, error) {
	c.wmu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.wmu.Unlock()
	ch := make(chan *rpcMsg, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case msg := <-ch:
		if msg.Error != nil {
			return nil, fmt.Errorf("%s: error %d: %s", method, msg.Error.Code, msg.Error.Message)
		}
		return msg.Result, nil
	case <-c.done:
		return nil, fmt.Errorf("%s: the server closed its output (%v); stderr: %s", method, c.err(), c.stderr)
	case <-time.After(timeout):
		return nil, fmt.Errorf("%s: no answer within %v; stderr: %s", method, timeout, c.stderr)
	case <-c.ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, c.ctx.Err())
	}
}

func (c *lspClient) err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readErr
}

// next returns the oldest queued notification, waiting until ctx ends.
func (c *lspClient) next(ctx context.Context) (event, error) {
	for {
		c.mu.Lock()
		if len(c.inbox) > 0 {
			ev := c.inbox[0]
			c.inbox = c.inbox[1:]
			c.mu.Unlock()
			return ev, nil
		}
		c.mu.Unlock()
		select {
		case <-c.signal:
		case <-c.done:
			return event{}, fmt.Errorf("the server closed its output (%v); stderr: %s", c.err(), c.stderr)
		case <-ctx.Done():
			return event{}, ctx.Err()
		}
	}
}

// close asks the server to shut down and exit, and kills it if it has not
// within a few seconds. After Ctrl-C it only closes the server's input.
func (c *lspClient) close() {
	if _, err := c.call("shutdown", nil, 5*time.Second); err == nil {
		_ = c.notify("exit", nil)
	}
	c.in.Close()
	exited := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill()
		<-exited
	}
}

// ring keeps the last bytes written to it (the server's stderr).
type ring struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func newRing(max int) *ring { return &ring{max: max} }

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.b = append(r.b, p...)
	if len(r.b) > r.max {
		r.b = append([]byte(nil), r.b[len(r.b)-r.max:]...)
	}
	return len(p), nil
}

func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return tail(r.b, 600)
}
