package lsp

// The shared test harness: an in-process client talking to Serve over
// net.Pipe, a raw-frame client for malformed input, and a fake engine whose
// findings follow from file contents. Waits never sleep: they block on a
// broadcast channel that every client event closes, with a deadline.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

const waitLimit = 10 * time.Second

// Answer modes for the client's side of server-to-client requests.
const (
	answerOK = iota
	answerError
	answerNever
)

// clientOpts selects the capabilities and behaviour of the test client.
type clientOpts struct {
	utf8, progress, watch, configuration, pull, refresh, plainText bool
	inlay, lens, labelRefresh                                      bool // inlay hints, code lenses, their refresh
	answer                                                         int
	initOptions                                                    string // JSON
	noFolders                                                      bool
	settings                                                       func() string // JSON answer to workspace/configuration
	root                                                           string        // workspace folder (default: a new temporary directory)
}

// testClient is one editor session against an in-process server.
type testClient struct {
	t      *testing.T
	root   string
	co     clientOpts
	conn   jsonrpc2.Conn
	server protocol.Server
	fake   *fakeChecker
	stderr *syncBuffer
	served chan error
	never  chan struct{} // closed at cleanup to release unanswered requests

	mu       sync.Mutex
	changed  chan struct{}
	pubs     map[uri.URI][]protocol.PublishDiagnosticsParams
	logs     []string
	progress []string // "token kind message"
	requests []string // methods of server-to-client requests
	regs     []protocol.Registration
}

// newClient writes files under a temporary root, starts Serve and
// connects, without initializing.
func newClient(t *testing.T, files map[string]string, co clientOpts, opts ...Option) *testClient {
	t.Helper()
	root := co.root
	if root == "" {
		root = t.TempDir()
	}
	tc := &testClient{t: t, root: root, co: co, fake: &fakeChecker{}, stderr: &syncBuffer{},
		served: make(chan error, 1), never: make(chan struct{}), changed: make(chan struct{}),
		pubs: map[uri.URI][]protocol.PublishDiagnosticsParams{}}
	for name, text := range files {
		tc.write(name, text)
	}
	serverEnd, clientEnd := net.Pipe()
	base := []Option{withChecker(tc.fake), WithDebounce(time.Millisecond), withClientTimeout(2 * time.Second)}
	go func() { tc.served <- Serve(t.Context(), serverEnd, serverEnd, tc.stderr, append(base, opts...)...) }()
	tc.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientEnd), jsonrpc2.WithCodec(lspCodec{}))
	tc.conn.Go(context.Background(), tc.handler())
	tc.server = protocol.ServerDispatcher(tc.conn)
	t.Cleanup(func() {
		close(tc.never)
		clientEnd.Close()
		tc.conn.Close()
		tc.serveResult()
	})
	return tc
}

// session is newClient + initialize + initialized.
func session(t *testing.T, files map[string]string, co clientOpts, opts ...Option) *testClient {
	tc := newClient(t, files, co, opts...)
	tc.initialize()
	return tc
}

func (tc *testClient) initialize() *protocol.InitializeResult {
	tc.t.Helper()
	p := &protocol.InitializeParams{Capabilities: tc.capabilities()}
	if !tc.co.noFolders {
		p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(tc.root), Name: "root"}})
	}
	if tc.co.initOptions != "" {
		p.InitializationOptions = protocol.LSPAny(tc.co.initOptions)
	}
	res, err := tc.server.Initialize(tc.ctx(), p)
	if err != nil {
		tc.t.Fatalf("initialize: %v", err)
	}
	if err := tc.server.Initialized(tc.ctx(), &protocol.InitializedParams{}); err != nil {
		tc.t.Fatalf("initialized: %v", err)
	}
	return res
}

func (tc *testClient) capabilities() protocol.ClientCapabilities {
	co := tc.co
	c := protocol.ClientCapabilities{
		Window:    &protocol.WindowClientCapabilities{WorkDoneProgress: ptr(co.progress)},
		Workspace: &protocol.WorkspaceClientCapabilities{Configuration: ptr(co.configuration)},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			Hover: &protocol.HoverClientCapabilities{ContentFormat: []protocol.MarkupKind{protocol.MarkupKindMarkdown}},
		},
	}
	if co.plainText {
		c.TextDocument.Hover.ContentFormat = []protocol.MarkupKind{protocol.MarkupKindPlainText}
	}
	if co.utf8 {
		c.General = &protocol.GeneralClientCapabilities{PositionEncodings: []protocol.PositionEncodingKind{
			protocol.PositionEncodingKindUTF8, protocol.PositionEncodingKindUTF16}}
	}
	if co.watch {
		c.Workspace.DidChangeWatchedFiles = &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: ptr(true)}
	}
	if co.inlay {
		c.TextDocument.InlayHint = &protocol.InlayHintClientCapabilities{}
		c.Workspace.InlayHint = &protocol.InlayHintWorkspaceClientCapabilities{RefreshSupport: ptr(co.labelRefresh)}
	}
	if co.lens {
		c.TextDocument.CodeLens = &protocol.CodeLensClientCapabilities{}
		c.Workspace.CodeLens = &protocol.CodeLensWorkspaceClientCapabilities{RefreshSupport: ptr(co.labelRefresh)}
	}
	if co.pull {
		c.TextDocument.Diagnostic = &protocol.DiagnosticClientCapabilities{}
		c.Workspace.Diagnostics = &protocol.DiagnosticWorkspaceClientCapabilities{RefreshSupport: ptr(co.refresh)}
	}
	return c
}

func (tc *testClient) ctx() context.Context {
	ctx, cancel := context.WithTimeout(tc.t.Context(), waitLimit)
	tc.t.Cleanup(cancel)
	return ctx
}

// handler serves the server's requests and notifications: notifications
// inline (to record them in order), requests released from the read loop.
func (tc *testClient) handler() jsonrpc2.Handler {
	dispatch := protocol.ClientHandler(&fakeClient{tc: tc}, jsonrpc2.MethodNotFoundHandler)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			jsonrpc2.Async(ctx)
		}
		res, err := dispatch(ctx, req)
		if !req.IsCall() {
			return nil, nil
		}
		return res, err
	}
}

// record changes client state and wakes every waiter.
func (tc *testClient) record(f func()) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	f()
	close(tc.changed)
	tc.changed = make(chan struct{})
}

// waitFor blocks until cond, evaluated under tc.mu, holds.
func (tc *testClient) waitFor(desc string, cond func() bool) {
	tc.t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		tc.mu.Lock()
		ok, ch := cond(), tc.changed
		tc.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			tc.t.Fatalf("timed out waiting for %s\nserver log:\n%s", desc, tc.stderr.String())
		}
	}
}

// lastPub returns the newest publication for a file, if any (under tc.mu).
func (tc *testClient) lastPub(name string) (protocol.PublishDiagnosticsParams, bool) {
	list := tc.pubs[tc.uri(name)]
	if len(list) == 0 {
		return protocol.PublishDiagnosticsParams{}, false
	}
	return list[len(list)-1], true
}

// waitDiags waits until the newest publication for name has n diagnostics
// and satisfies extra (which may be nil), and returns it.
func (tc *testClient) waitDiags(name string, n int, extra func(protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
	tc.t.Helper()
	var got protocol.PublishDiagnosticsParams
	tc.waitFor(fmt.Sprintf("%d diagnostics for %s", n, name), func() bool {
		p, ok := tc.lastPub(name)
		got = p
		return ok && len(p.Diagnostics) == n && (extra == nil || extra(p))
	})
	return got
}

func (tc *testClient) pubCount(name string) int {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return len(tc.pubs[tc.uri(name)])
}

func (tc *testClient) waitLog(substr string) {
	tc.t.Helper()
	tc.waitFor("log line "+strconv.Quote(substr), func() bool {
		for _, l := range tc.logs {
			if strings.Contains(l, substr) {
				return true
			}
		}
		return false
	})
}

func (tc *testClient) path(name string) string { return filepath.Join(tc.root, name) }
func (tc *testClient) uri(name string) uri.URI { return uri.File(tc.path(name)) }

func (tc *testClient) write(name, text string) {
	tc.t.Helper()
	if err := os.MkdirAll(filepath.Dir(tc.path(name)), 0o755); err != nil {
		tc.t.Fatal(err)
	}
	if err := os.WriteFile(tc.path(name), []byte(text), 0o644); err != nil {
		tc.t.Fatal(err)
	}
}

func (tc *testClient) open(name, text string) {
	tc.t.Helper()
	item := protocol.TextDocumentItem{URI: tc.uri(name), LanguageID: protocol.LanguageKindPython, Version: 1, Text: text}
	if err := tc.server.DidOpen(tc.ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: item}); err != nil {
		tc.t.Fatal(err)
	}
}

// edit sends one didChange; a nil range replaces the whole text.
func (tc *testClient) edit(name string, version int32, rng *protocol.Range, text string) {
	tc.t.Helper()
	var ch protocol.TextDocumentContentChangeEvent = &protocol.TextDocumentContentChangeWholeDocument{Text: text}
	if rng != nil {
		ch = &protocol.TextDocumentContentChangePartial{Range: *rng, Text: text}
	}
	p := &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: tc.uri(name)}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{ch},
	}
	if err := tc.server.DidChange(tc.ctx(), p); err != nil {
		tc.t.Fatal(err)
	}
}

func (tc *testClient) notifyWatched(name string, typ protocol.FileChangeType) {
	tc.t.Helper()
	p := &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: tc.uri(name), Type: typ}}}
	if err := tc.server.DidChangeWatchedFiles(tc.ctx(), p); err != nil {
		tc.t.Fatal(err)
	}
}

// shutdownExit ends the session properly and returns Serve's result.
func (tc *testClient) shutdownExit() error {
	tc.t.Helper()
	if err := tc.server.Shutdown(tc.ctx()); err != nil {
		tc.t.Fatalf("shutdown: %v", err)
	}
	if err := tc.server.Exit(tc.ctx()); err != nil {
		tc.t.Fatalf("exit: %v", err)
	}
	return tc.serveResult()
}

// serveResult waits for Serve to return; it can be called repeatedly.
func (tc *testClient) serveResult() error {
	tc.t.Helper()
	select {
	case err := <-tc.served:
		tc.served <- err
		return err
	case <-time.After(waitLimit):
		tc.t.Fatalf("Serve did not return\nserver log:\n%s", tc.stderr.String())
		return nil
	}
}

// call sends a raw request and returns the JSON-RPC error code (0 if none).
func (tc *testClient) call(method string, params any, result any) jsonrpc2.Code {
	tc.t.Helper()
	_, err := tc.conn.Call(tc.ctx(), method, params, result)
	return errCode(tc.t, err)
}

func errCode(t *testing.T, err error) jsonrpc2.Code {
	t.Helper()
	if err == nil {
		return 0
	}
	var we *jsonrpc2.Error
	if !errors.As(err, &we) {
		t.Fatalf("not a JSON-RPC error: %v", err)
	}
	return we.Code
}

// fakeClient records what the server sends and answers its requests as
// clientOpts.answer says.
type fakeClient struct {
	protocol.UnimplementedClient
	tc *testClient
}

func (f *fakeClient) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	f.tc.record(func() { f.tc.pubs[p.URI] = append(f.tc.pubs[p.URI], *p) })
	return nil
}

func (f *fakeClient) LogMessage(_ context.Context, p *protocol.LogMessageParams) error {
	f.tc.record(func() { f.tc.logs = append(f.tc.logs, p.Message) })
	return nil
}

func (f *fakeClient) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	f.tc.record(func() { f.tc.logs = append(f.tc.logs, "showMessage: "+p.Message) })
	return nil
}

func (f *fakeClient) Progress(_ context.Context, p *protocol.ProgressParams) error {
	var v struct{ Kind, Message string }
	_ = json.Unmarshal(p.Value, &v)
	f.tc.record(func() { f.tc.progress = append(f.tc.progress, fmt.Sprintf("%v %s %s", p.Token, v.Kind, v.Message)) })
	return nil
}

func (f *fakeClient) answer(method string) error {
	f.tc.record(func() { f.tc.requests = append(f.tc.requests, method) })
	switch f.tc.co.answer {
	case answerError:
		return jsonrpc2.NewError(jsonrpc2.InternalError, "client refuses "+method)
	case answerNever:
		<-f.tc.never
		return errors.New("test over")
	}
	return nil
}

func (f *fakeClient) RegisterCapability(_ context.Context, p *protocol.RegistrationParams) error {
	f.tc.record(func() { f.tc.regs = append(f.tc.regs, p.Registrations...) })
	return f.answer(protocol.MethodClientRegisterCapability)
}

func (f *fakeClient) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return f.answer(protocol.MethodWindowWorkDoneProgressCreate)
}

func (f *fakeClient) DiagnosticRefresh(context.Context) error {
	return f.answer(protocol.MethodWorkspaceDiagnosticRefresh)
}

func (f *fakeClient) InlayHintRefresh(context.Context) error {
	return f.answer(protocol.MethodWorkspaceInlayHintRefresh)
}

func (f *fakeClient) CodeLensRefresh(context.Context) error {
	return f.answer(protocol.MethodWorkspaceCodeLensRefresh)
}

func (f *fakeClient) Configuration(_ context.Context, p *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	if err := f.answer(protocol.MethodWorkspaceConfiguration); err != nil {
		return nil, err
	}
	out := make([]protocol.LSPAny, len(p.Items))
	for i := range out {
		out[i] = protocol.LSPAny("null")
		if f.tc.co.settings != nil {
			out[i] = protocol.LSPAny(f.tc.co.settings())
		}
	}
	return out, nil
}

// fakeChecker stands in for the engine. Its rules, all textual:
//
//   - a line with "comm_call(" is PAL101 when some file of the program has
//     "def comm_kernel" (so editing the callee changes the caller's
//     findings); related locations are the call's line and that def; fixes
//     are one safe rename and one display-only edit; it is also a kernel
//     call for hovers; the message names the JAX version used;
//   - a line with "unsafe_call(" is PAL103 with only an unsafe fix;
//   - "PANIC_NOW" anywhere panics; "BLOCK_CHECK" blocks until cancelled;
//   - codes in Options.Ignore are dropped.
type fakeChecker struct {
	mu    sync.Mutex
	opts  []analysis.Options
	calls int
}

func (f *fakeChecker) lastOpts() analysis.Options {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.opts) == 0 {
		return analysis.Options{}
	}
	return f.opts[len(f.opts)-1]
}

func (f *fakeChecker) Check(ctx context.Context, files []analysis.SourceFile, opts analysis.Options) (*analysis.Result, error) {
	f.mu.Lock()
	f.opts = append(f.opts, opts)
	f.calls++
	f.mu.Unlock()
	var kernel *analysis.Location
	for _, file := range files {
		if bytes.Contains(file.Src, []byte("PANIC_NOW")) {
			panic("fake checker: PANIC_NOW")
		}
		if bytes.Contains(file.Src, []byte("BLOCK_CHECK")) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		if loc, ok := findLine(file, "def comm_kernel"); ok && kernel == nil {
			kernel = &loc
		}
	}
	res := &analysis.Result{FilesChecked: len(files)}
	for _, file := range files {
		f.scan(res, file, kernel, opts)
		if i := bytes.Index(file.Src, []byte("BUDGET_SPENT_")); i >= 0 { // the run stopped in this file
			res.Incomplete = fmt.Sprintf("the analysis spent its step budget while running %s", file.Src[i:i+len("BUDGET_SPENT_")+1])
		}
	}
	return res, nil
}

func (f *fakeChecker) scan(res *analysis.Result, file analysis.SourceFile, kernel *analysis.Location, opts analysis.Options) {
	m := pyparse.NewMapper(file.Src)
	for line := 0; line < m.Lines(); line++ {
		start, end := m.LineStart(line), m.LineEnd(line)
		text := string(file.Src[start:end])
		if i := strings.Index(text, "comm_call("); i >= 0 && kernel != nil && !ignored(opts, "PAL101") {
			at := loc(file.Path, m, start+i, end)
			res.Diagnostics = append(res.Diagnostics, pal101(at, *kernel, opts))
			res.KernelCalls = append(res.KernelCalls, analysis.KernelCallInfo{Location: at, Kernel: "comm_kernel",
				Backend: "tpu", Communication: "remote DMA", Contexts: []string{"jax.jit without shard_map"}})
		}
		if i := strings.Index(text, "unsafe_call("); i >= 0 && !ignored(opts, "PAL103") {
			at := loc(file.Path, m, start+i, end)
			res.Diagnostics = append(res.Diagnostics, analysis.Diagnostic{Code: "PAL103", Name: "kernel-under-multi-device-jit",
				Severity: analysis.SeverityWarning, Location: at, Message: "kernel under multi-device jit",
				Fixes: []analysis.SuggestedFix{{Title: "Risky rewrite", Applicability: analysis.Unsafe,
					Edits: []analysis.TextEdit{{Location: loc(file.Path, m, start+i, start+i+6), NewText: "risky"}}}}})
		}
	}
}

func pal101(at, kernel analysis.Location, opts analysis.Options) analysis.Diagnostic {
	call := at
	call.Span.End = call.Span.Start + len("comm_call")
	return analysis.Diagnostic{
		Code: "PAL101", Name: "comm-outside-shard-map", Severity: analysis.SeverityError, Location: at,
		Message: fmt.Sprintf("communicating kernel `comm_kernel` runs outside shard_map (JAX %s)", opts.JAXVersion),
		Detail:  "JAX raises NotImplementedError: remote DMA needs a manual mesh",
		Related: []analysis.Related{
			{Location: at, Message: "reached from here: module top level"},
			{Location: kernel, Message: "communicating op here"},
		},
		Fixes: []analysis.SuggestedFix{
			{Title: "Wrap the call in jax.shard_map", Applicability: analysis.Safe,
				Edits: []analysis.TextEdit{{Location: call, NewText: "shard_map(comm_call)"}}},
			{Title: "Show the mesh axes", Applicability: analysis.DisplayOnly,
				Edits: []analysis.TextEdit{{Location: analysis.Location{File: at.File, Span: pyparse.Span{Start: at.Span.Start, End: at.Span.Start}}, NewText: "# axes\n"}}},
		},
	}
}

func ignored(opts analysis.Options, code string) bool {
	for _, c := range opts.Ignore {
		if c == code {
			return true
		}
	}
	return false
}

func loc(path string, m *pyparse.Mapper, start, end int) analysis.Location {
	l, c := m.LineCol(start)
	el, ec := m.LineCol(end)
	return analysis.Location{File: path, Span: pyparse.Span{Start: start, End: end},
		Pos: analysis.Position{Line: l, Column: c, EndLine: el, EndColumn: ec}}
}

func findLine(file analysis.SourceFile, needle string) (analysis.Location, bool) {
	i := bytes.Index(file.Src, []byte(needle))
	if i < 0 {
		return analysis.Location{}, false
	}
	m := pyparse.NewMapper(file.Src)
	return loc(file.Path, m, i, m.LineEnd(m.Line(i))), true
}

// rawClient speaks LSP framing by hand, for input no real client sends.
type rawClient struct {
	t      *testing.T
	conn   net.Conn
	in     *bufio.Reader
	served chan error
	stderr *syncBuffer
}

func newRawClient(t *testing.T, opts ...Option) *rawClient {
	serverEnd, clientEnd := net.Pipe()
	rc := &rawClient{t: t, conn: clientEnd, in: bufio.NewReader(clientEnd), served: make(chan error, 1), stderr: &syncBuffer{}}
	base := []Option{withChecker(&fakeChecker{}), WithDebounce(time.Millisecond), withClientTimeout(time.Second)}
	go func() { rc.served <- Serve(t.Context(), serverEnd, serverEnd, rc.stderr, append(base, opts...)...) }()
	t.Cleanup(func() {
		clientEnd.Close()
		<-rc.served
	})
	return rc
}

func (rc *rawClient) send(body string) {
	rc.sendBytes([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)))
}

func (rc *rawClient) sendBytes(b []byte) {
	rc.t.Helper()
	rc.conn.SetWriteDeadline(time.Now().Add(waitLimit))
	if _, err := rc.conn.Write(b); err != nil {
		rc.t.Fatalf("write: %v", err)
	}
}

// response reads messages until the response with the given id (JSON
// text, "null" included) arrives, skipping notifications.
func (rc *rawClient) response(id string) map[string]json.RawMessage {
	rc.t.Helper()
	rc.conn.SetReadDeadline(time.Now().Add(waitLimit))
	for {
		msg := rc.read()
		if rawID, ok := msg["id"]; ok && string(rawID) == id && msg["method"] == nil {
			return msg
		}
	}
}

func (rc *rawClient) read() map[string]json.RawMessage {
	rc.t.Helper()
	n := 0
	for {
		line, err := rc.in.ReadString('\n')
		if err != nil {
			rc.t.Fatalf("read header: %v\nserver log:\n%s", err, rc.stderr.String())
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(rc.in, body); err != nil {
		rc.t.Fatalf("read body: %v", err)
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(body, &msg); err != nil {
		rc.t.Fatalf("server sent invalid JSON %q: %v", body, err)
	}
	return msg
}

// errorCode extracts error.code from a response ("" when it succeeded).
func errorCode(msg map[string]json.RawMessage) string {
	var e struct{ Code json.Number }
	if raw, ok := msg["error"]; ok && json.Unmarshal(raw, &e) == nil {
		return e.Code.String()
	}
	return ""
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLoneEditIsCheckedAtOnce: with nothing running or scheduled, an edit
// is checked at once, not after the debounce (3 s here; the open may wait
// for it, since it can arrive while the first index is being checked).
func TestLoneEditIsCheckedAtOnce(t *testing.T) {
	const debounce = 3 * time.Second
	tc := session(t, map[string]string{"a.py": "x = 1\n"}, clientOpts{}, WithDebounce(debounce))
	tc.open("a.py", "def comm_kernel():\n    pass\ncomm_call(1)\n")
	waitVersion(tc, "a.py", 1)
	start := time.Now()
	tc.edit("a.py", 2, nil, "x = 2\n")
	waitVersion(tc, "a.py", 2)
	if d := time.Since(start); d >= debounce/2 {
		t.Errorf("a lone edit was published after %v: it waited for the debounce", d)
	}
}

// TestBurstIsCoalesced: edits that arrive while a check runs (or waits)
// are debounced into one check of the last text.
func TestBurstIsCoalesced(t *testing.T) {
	tc := session(t, map[string]string{"a.py": "x = 1\n"}, clientOpts{}, WithDebounce(2*time.Second))
	tc.open("a.py", "def comm_kernel():\n    pass\ncomm_call(1)\n")
	waitVersion(tc, "a.py", 1)
	before := tc.fake.callCount()
	// Every text of the burst blocks its check until the next edit cancels
	// it. (A check takes its snapshot when it starts: were the burst's texts
	// quick to check, the check started for version 2 could read version 3,
	// finish before version 3's change is scheduled and leave the server
	// idle, so that each later edit, checked at once, finished before the
	// next: a burst that never overlaps a check, not the case under test.)
	for v := int32(2); v < 20; v++ {
		tc.edit("a.py", v, nil, fmt.Sprintf("BLOCK_CHECK = %d\n", v))
	}
	// The last text has a finding, so its set differs from the first's.
	tc.edit("a.py", 20, nil, "def comm_kernel():\n    pass\n\ncomm_call(2)\n")
	waitVersion(tc, "a.py", 20)
	if n := tc.fake.callCount() - before; n > 4 {
		t.Errorf("a burst of 19 edits ran %d checks; want it coalesced", n)
	}
}

// waitVersion waits for the publication of name at version v.
func waitVersion(tc *testClient, name string, v int32) {
	tc.t.Helper()
	tc.waitFor(fmt.Sprintf("%s published at version %d", name, v), func() bool {
		p, ok := tc.lastPub(name)
		got, set := p.Version.Get()
		return ok && set && got == v
	})
}

func (f *fakeChecker) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}
