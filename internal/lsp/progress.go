package lsp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
)

// callClient sends a server-to-client request and waits at most the client
// timeout for the answer. It is for background goroutines only: a handler
// that waited here would stall the connection (see goClient). Failures are
// logged and returned; none of them is fatal to the server.
func (s *server) callClient(ctx context.Context, name string, call func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.clientTimeout)
	defer cancel()
	err := call(ctx)
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		s.log.warnf("%s: no answer from the client within %v", name, s.cfg.clientTimeout)
	default:
		s.log.warnf("%s: %v", name, err)
	}
	return err
}

// goClient is callClient on its own goroutine, then done(err) if given.
func (s *server) goClient(name string, call func(context.Context) error, done func(error)) {
	go func() {
		defer s.recoverBackground(name)
		err := s.callClient(s.bg, name, call)
		if done != nil {
			done(err)
		}
	}()
}

// recoverBackground keeps a panic in background work from killing the
// process; it is reported like any internal error.
func (s *server) recoverBackground(what string) {
	if r := recover(); r != nil {
		s.log.errorf("internal error: %s panicked: %v", what, r)
	}
}

// progress is one $/progress sequence. The token must be created by the
// client before any notification uses it, but the work must not wait for
// that answer, so reports made before creation are folded into the begin
// notification sent once the client agrees; a client that refuses or never
// answers simply sees no progress.
type progress struct {
	s      *server
	token  string
	cancel context.CancelFunc

	mu     sync.Mutex
	state  int // 0 pending, 1 created, 2 unavailable
	title  string
	msg    string
	pct    uint32
	ended  bool
	endMsg string
}

func (s *server) startProgress(title string, cancel context.CancelFunc) *progress {
	p := &progress{s: s, token: fmt.Sprintf("pallas-ls/%d", s.progressSeq.Add(1)), cancel: cancel, title: title}
	if !s.capsSnapshot().workDoneProgress {
		p.state = 2
		return p
	}
	s.progress.Store(p.token, p)
	params := &protocol.WorkDoneProgressCreateParams{Token: protocol.String(p.token)}
	s.goClient("window/workDoneProgress/create", func(ctx context.Context) error {
		return s.client.WorkDoneProgressCreate(ctx, params)
	}, p.created)
	return p
}

func (p *progress) created(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.state = 2
		p.s.progress.Delete(p.token)
		return
	}
	p.state = 1
	p.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: p.title, Cancellable: ptr(true),
		Message: ptr(p.msg), Percentage: ptr(p.pct)})
	if p.ended {
		p.finish()
	}
}

func (p *progress) report(msg string, pct uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msg, p.pct = msg, pct
	if p.state == 1 && !p.ended {
		p.send(&protocol.WorkDoneProgressReport{Kind: "report", Message: ptr(msg), Percentage: ptr(pct)})
	}
}

func (p *progress) end(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended, p.endMsg = true, msg
	if p.state == 1 {
		p.finish()
	}
}

func (p *progress) finish() {
	p.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: ptr(p.endMsg)})
	p.s.progress.Delete(p.token)
}

func (p *progress) send(value any) {
	raw, err := protocol.Marshal(value)
	if err != nil {
		p.s.log.errorf("internal error: encoding progress: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(p.s.bg, p.s.cfg.clientTimeout)
	defer cancel()
	params := &protocol.ProgressParams{Token: protocol.String(p.token), Value: protocol.LSPAny(raw)}
	if err := p.s.client.Progress(ctx, params); err != nil {
		p.s.log.debugf("$/progress: %v", err)
	}
}

// WorkDoneProgressCancel stops the work a progress token reports on.
func (s *server) WorkDoneProgressCancel(_ context.Context, params *protocol.WorkDoneProgressCancelParams) error {
	tok, ok := params.Token.(protocol.String)
	if !ok {
		return nil
	}
	if v, ok := s.progress.Load(string(tok)); ok {
		s.log.infof("%s cancelled by the client", v.(*progress).title)
		v.(*progress).cancel()
	}
	return nil
}
