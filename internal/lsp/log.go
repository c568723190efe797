package lsp

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// logger writes every message to the log writer (stderr) and forwards it
// to the client as window/logMessage. Forwarding goes through a bounded
// queue drained by one goroutine: log calls happen on the read loop and
// under locks, and must never wait for a slow or stuck client. When the
// queue is full, messages still reach stderr and only the copy for the
// client is dropped.
type logger struct {
	mu      sync.Mutex
	w       io.Writer
	queue   chan protocol.LogMessageParams
	done    chan struct{}
	started bool
	stopped bool
	dropped int
}

func newLogger(w io.Writer) *logger {
	if w == nil {
		w = io.Discard
	}
	return &logger{w: w, queue: make(chan protocol.LogMessageParams, 256), done: make(chan struct{})}
}

// start begins forwarding to client; messages logged earlier are queued.
func (l *logger) start(client protocol.Client) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started || l.stopped {
		return
	}
	l.started = true
	go func() {
		defer close(l.done)
		for m := range l.queue {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_ = client.LogMessage(ctx, &m)
			cancel()
		}
	}()
}

// stop flushes what is queued (bounded by the per-message timeout) and
// stops forwarding.
func (l *logger) stop() {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return
	}
	l.stopped = true
	close(l.queue)
	started := l.started
	l.mu.Unlock()
	if started {
		<-l.done
	}
}

func (l *logger) logf(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "pallas-ls %s %s: %s\n", time.Now().Format("15:04:05.000"), levelName(typ), msg)
	if l.stopped {
		return
	}
	select {
	case l.queue <- protocol.LogMessageParams{Type: typ, Message: msg}:
	default:
		l.dropped++
	}
}

func levelName(t protocol.MessageType) string {
	switch t {
	case protocol.MessageTypeError:
		return "error"
	case protocol.MessageTypeWarning:
		return "warning"
	case protocol.MessageTypeInfo:
		return "info"
	}
	return "debug"
}

func (l *logger) errorf(format string, args ...any) {
	l.logf(protocol.MessageTypeError, format, args...)
}

func (l *logger) warnf(format string, args ...any) {
	l.logf(protocol.MessageTypeWarning, format, args...)
}

func (l *logger) infof(format string, args ...any) {
	l.logf(protocol.MessageTypeInfo, format, args...)
}

// debugf is for chatter such as skipped frames: logged as MessageTypeLog,
// which clients show only in their verbose log.
func (l *logger) debugf(format string, args ...any) {
	l.logf(protocol.MessageTypeLog, format, args...)
}
