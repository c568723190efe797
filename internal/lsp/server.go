package lsp

import (
	"context"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

type lifecycle int

const (
	stateNew      lifecycle = iota // before initialize
	stateRunning                   // after initialize
	stateShutdown                  // after shutdown; only exit is served
)

// server implements protocol.Server. Handlers update the document store
// and project and then call diag.invalidate; everything slow (indexing,
// checking, requests to the client) runs on background goroutines under
// bg, which lives until Serve returns.
type server struct {
	protocol.UnimplementedServer

	cfg    serveConfig
	client protocol.Client
	log    *logger

	bg     context.Context
	stopBG context.CancelFunc

	exitOnce sync.Once
	exited   chan struct{}

	mu    sync.Mutex
	state lifecycle
	caps  clientCaps

	docs        *docStore
	proj        *project
	work        *workQueue
	diag        *diagnoser
	progress    sync.Map // token -> *progress, for window/workDoneProgress/cancel
	progressSeq atomic.Int64
	inflight    sync.Map // jsonrpc2.ID -> context.CancelFunc, for $/cancelRequest
	told        sync.Map // messages already shown to the user
	// incomplete is, per group key, the last note of a check cut short by
	// its step budget (diagnose runs one at a time).
	incomplete map[string]string

	// engines holds one checker per group key (check.go); checks run one
	// at a time, enginesMu guards the map all the same.
	enginesMu sync.Mutex
	engines   map[string]checker
}

func newServer(ctx context.Context, cfg serveConfig, conn jsonrpc2.Conn, log *logger) *server {
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &server{
		cfg:    cfg,
		client: protocol.ClientDispatcher(conn),
		log:    log,
		bg:     bg,
		stopBG: stop,
		exited: make(chan struct{}),
		docs:   newDocStore(),
		proj:   newProject(),
		work:   newWorkQueue(),
	}
	s.diag = newDiagnoser(s, cfg.debounce)
	go s.work.run(bg, s)
	return s
}

func (s *server) lifecycle() lifecycle {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

func (s *server) isShutdown() bool { return s.lifecycle() == stateShutdown }

func (s *server) capsSnapshot() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// Initialize records what the client can do and answers with what the
// server will do. It runs inline on the read loop, so the notifications
// that follow it see its effects.
func (s *server) Initialize(_ context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	cc := readCaps(p.Capabilities)
	init, _, err := parseSettings(p.InitializationOptions)
	if err != nil {
		s.log.warnf("initializationOptions: %v", err)
	}
	folders := initialFolders(p)
	s.proj.setFolders(folders)
	s.proj.mu.Lock()
	s.proj.settings.init = init
	s.proj.mu.Unlock()
	s.mu.Lock()
	s.state, s.caps = stateRunning, cc
	s.mu.Unlock()
	// LSP allows window/logMessage from here on; what was logged before
	// waited in the queue.
	s.log.start(s.client)
	s.log.infof("initialized by %s: %d workspace folders, %s positions, %s diagnostics",
		clientName(p), len(folders), encodingName(cc), modeName(cc))
	return &protocol.InitializeResult{
		Capabilities: serverCapabilities(cc),
		ServerInfo:   protocol.ServerInfo{Name: serverName, Version: protocol.NewOptional(s.cfg.version)},
	}, nil
}

func clientName(p *protocol.InitializeParams) string {
	if p.ClientInfo.Name == "" {
		return "an unnamed client"
	}
	return p.ClientInfo.Name
}

func encodingName(cc clientCaps) string {
	if cc.utf8 {
		return "UTF-8"
	}
	return "UTF-16"
}

func modeName(cc clientCaps) string {
	if cc.pullDiagnostics {
		return "pull"
	}
	return "push"
}

// Initialized starts the work that needs the client's answers: watcher
// registration and the first index, both in the background.
func (s *server) Initialized(context.Context, *protocol.InitializedParams) error {
	s.registerWatchers()
	s.reindex("startup")
	return nil
}

// Shutdown stops background work; the answer tells the client it may now
// send exit.
func (s *server) Shutdown(context.Context) error {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	s.diag.stop()
	s.proj.mu.Lock()
	if s.proj.cancel != nil {
		s.proj.cancel()
	}
	s.proj.mu.Unlock()
	return nil
}

func (s *server) exit() {
	s.exitOnce.Do(func() { close(s.exited) })
}

func (s *server) stopBackground() {
	s.diag.stop()
	s.stopBG()
}

// SetTrace is accepted and ignored: all logging goes to window/logMessage.
func (s *server) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }
