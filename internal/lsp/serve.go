package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// ErrNoShutdown is returned by Serve when the client ended the session
// (exit notification or end of input) without a shutdown request first; the
// LSP specification asks for exit code 1 then.
var ErrNoShutdown = errors.New("lsp: session ended without a shutdown request")

// ExitCode maps Serve's result to the process exit code the LSP
// specification prescribes: 0 after shutdown and exit, 1 otherwise.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	return 1
}

// checker is the engine as the server sees it; tests substitute a fake so
// that every editor feature can be exercised before the rules exist.
type checker interface {
	Check(ctx context.Context, files []analysis.SourceFile, opts analysis.Options) (*analysis.Result, error)
}

// Option adjusts Serve.
type Option func(*serveConfig)

type serveConfig struct {
	// newChecker makes the engine of one group of files (a workspace
	// folder): each keeps its own caches, so checking one folder does not
	// evict another's.
	newChecker    func() checker
	debounce      time.Duration
	clientTimeout time.Duration
	// analyzers are the rules every check runs (default: package rules').
	analyzers []*analysis.Analyzer
	ruleTitle func(code string) string
	indexHook func(ctx context.Context, dir string) // tests: runs before each folder is indexed
	// budget bounds the discovery of each workspace folder.
	budget workspace.Budget
	// version is the server's version, reported in serverInfo.
	version string
	// cache holds results between sessions (warmcache.go); nil: none.
	cache *resultCache
}

// defaultBudget bounds what one workspace folder may bring into the index:
// far above real projects (JAX's checkout has 1,044 files, 25 MB), far
// below a folder of / or of a home directory, which would otherwise be
// walked and read whole (9.5 GB, never answering).
var defaultBudget = workspace.Budget{Files: 20000, Bytes: 256 << 20, Entries: 2000000}

// WithVersion sets the version initialize reports in serverInfo and the
// status command shows (default "(devel)").
func WithVersion(v string) Option { return func(c *serveConfig) { c.version = v } }

// withBudget replaces the discovery budget (tests).
func withBudget(b workspace.Budget) Option { return func(c *serveConfig) { c.budget = b } }

// WithDebounce sets how long the server waits after the last edit before it
// re-checks the workspace when edits arrive while a check is running or
// waiting (default 50ms); an edit that finds the server idle is checked at
// once.
func WithDebounce(d time.Duration) Option { return func(c *serveConfig) { c.debounce = d } }

// withRuleTitles replaces the lookup of rule titles (tests).
func withRuleTitles(f func(code string) string) Option {
	return func(c *serveConfig) { c.ruleTitle = f }
}

// titleIn finds a rule's title among analyzers.
func titleIn(analyzers []*analysis.Analyzer, code string) string {
	if a, ok := analysis.Lookup(analyzers, code); ok {
		return a.Doc.Title
	}
	return ""
}

// withChecker replaces the analysis engine of every group (tests).
func withChecker(ch checker) Option {
	return func(c *serveConfig) { c.newChecker = func() checker { return ch } }
}

// withCheckerFactory makes each group's engine with f (tests).
func withCheckerFactory(f func() checker) Option { return func(c *serveConfig) { c.newChecker = f } }

// withClientTimeout bounds server-to-client requests (tests shorten it).
func withClientTimeout(d time.Duration) Option {
	return func(c *serveConfig) { c.clientTimeout = d }
}

// withIndexHook lets tests hold indexing at a known point.
func withIndexHook(f func(ctx context.Context, dir string)) Option {
	return func(c *serveConfig) { c.indexHook = f }
}

func newServeConfig(opts []Option) serveConfig {
	c := serveConfig{debounce: 50 * time.Millisecond, clientTimeout: 5 * time.Second, budget: defaultBudget, version: "(devel)"}
	for _, o := range opts {
		o(&c)
	}
	if c.newChecker == nil {
		cache := c.cache
		c.newChecker = func() checker {
			e := analysis.NewEngine()
			if cache != nil && cache.store != nil {
				// The trees of the first check are saved after it
				// (saveTrees), for the next session's first check.
				e.Trees, e.ToolID = cache.store, cache.toolID
			}
			return e
		}
	}
	if c.analyzers == nil {
		c.analyzers = rules.All()
	}
	if c.ruleTitle == nil {
		as := c.analyzers
		c.ruleTitle = func(code string) string { return titleIn(as, code) }
	}
	return c
}

// Serve runs the language server over in and out (stdio in production) until
// the client sends exit, the input ends, or ctx is done. Logs go to logw and
// to the client's window/logMessage, never to out. The result is nil after a
// clean shutdown+exit, ErrNoShutdown when the client skipped shutdown; see
// ExitCode.
func Serve(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer, opts ...Option) error {
	cfg := newServeConfig(opts)
	log := newLogger(logw)
	rwc := newPipeRWC(in, out)
	conn := jsonrpc2.NewConn(newTolerantStream(rwc, log.debugf), jsonrpc2.WithCodec(lspCodec{}))
	s := newServer(ctx, cfg, conn, log)
	connCtx, cancelConn := context.WithCancel(ctx)
	conn.Go(connCtx, s.handler())

	var ended string
	select {
	case <-s.exited:
		ended = "exit"
	case <-conn.Done():
		ended = "end of input"
	case <-ctx.Done():
		ended = "cancelled"
	}
	s.stopBackground()
	cancelConn()
	closeConn(conn, time.Second)
	log.stop()
	return s.outcome(ended, conn.Err(), ctx.Err())
}

// closeConn waits a bounded time for the connection to drain, so that a
// handler stuck on a misbehaving client cannot keep the process alive.
func closeConn(conn jsonrpc2.Conn, limit time.Duration) {
	go conn.Close()
	select {
	case <-conn.Done():
	case <-time.After(limit):
	}
}

// outcome turns how the session ended into Serve's result.
func (s *server) outcome(ended string, connErr, ctxErr error) error {
	shutdown := s.isShutdown()
	switch {
	case ended == "exit":
		s.log.infof("exit (shutdown received: %v)", shutdown)
	case ended == "cancelled":
		s.log.infof("stopped: %v", ctxErr)
	case connErr != nil:
		s.log.errorf("connection failed: %v", connErr)
		return fmt.Errorf("lsp: %w", connErr)
	}
	if ended == "cancelled" && !shutdown {
		return ctxErr
	}
	if !shutdown {
		return ErrNoShutdown
	}
	return nil
}

// pipeRWC joins in and out into the ReadWriteCloser jsonrpc2 wants. Reads go
// through an io.Pipe fed by a pump goroutine, because closing a blocking
// os.Stdin does not interrupt a read in progress, while closing the pipe
// does; without it Serve could hang on exit.
type pipeRWC struct {
	pr   *io.PipeReader
	in   io.Reader
	out  io.Writer
	once sync.Once
}

func newPipeRWC(in io.Reader, out io.Writer) *pipeRWC {
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, in)
		pw.CloseWithError(err)
	}()
	return &pipeRWC{pr: pr, in: in, out: out}
}

func (p *pipeRWC) Read(b []byte) (int, error)  { return p.pr.Read(b) }
func (p *pipeRWC) Write(b []byte) (int, error) { return p.out.Write(b) }

func (p *pipeRWC) Close() error {
	p.once.Do(func() {
		p.pr.Close()
		if c, ok := p.in.(io.Closer); ok {
			c.Close()
		}
		if c, ok := p.out.(io.Closer); ok && any(p.out) != any(p.in) {
			c.Close()
		}
	})
	return nil
}
