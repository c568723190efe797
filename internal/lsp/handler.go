package lsp

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// handler builds the connection's handler. It replaces protocol.Handlers,
// whose choices do not suit a server that must survive any client:
//
//   - notifications run inline, in wire order (didOpen before didChange),
//     and never return an error, since jsonrpc2 closes the connection on one;
//   - requests other than initialize and shutdown release the read loop
//     (jsonrpc2.Async) so that a slow request cannot delay edits or
//     $/cancelRequest;
//   - every handler recovers panics: jsonrpc2 would answer and then close
//     the connection, we answer with InternalError and keep serving;
//   - the lifecycle gate answers ServerNotInitialized and refuses work
//     after shutdown.
func (s *server) handler() jsonrpc2.Handler {
	dispatch := protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := strings.Clone(req.Method())
		isCall := req.IsCall()
		defer s.recoverHandler(method, isCall, &result, &err)
		if !isCall {
			s.notification(ctx, req, method, dispatch)
			return nil, nil
		}
		if gateErr := s.gate(method); gateErr != nil {
			return nil, gateErr
		}
		if inline[method] {
			result, err = dispatch(ctx, req)
		} else {
			result, err = s.asyncCall(ctx, req, dispatch)
		}
		return result, wireError(method, err)
	}
}

// asyncCall releases the read loop and runs the request under a context
// that $/cancelRequest can cancel. The cancel function is registered before
// the release, since the next message read may be that very
// $/cancelRequest. The context derives from the server's lifetime context,
// not the request's: jsonrpc2 recycles request contexts, and a context
// derived from one would be read after recycling by the context package's
// watcher goroutine (which is also why jsonrpc2.CancelHandler is not used).
func (s *server) asyncCall(ctx context.Context, req *jsonrpc2.Request, dispatch jsonrpc2.Handler) (any, error) {
	id := req.ID()
	cctx, cancel := context.WithCancel(s.bg)
	defer cancel()
	s.inflight.Store(id, cancel)
	defer s.inflight.Delete(id)
	jsonrpc2.Async(ctx)
	return dispatch(cctx, req)
}

// recoverHandler turns a panic into an InternalError answer (for a request)
// or a log line (for a notification), keeping the connection alive.
func (s *server) recoverHandler(method string, isCall bool, result *any, err *error) {
	r := recover()
	if r == nil {
		return
	}
	s.log.errorf("internal error: %s panicked: %v\n%s", method, r, debug.Stack())
	*result = nil
	*err = nil
	if isCall {
		*err = jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r)
	}
}

// notification handles one notification inline. Errors are logged because
// a notification has nobody to answer to.
func (s *server) notification(ctx context.Context, req *jsonrpc2.Request, method string, dispatch jsonrpc2.Handler) {
	switch method {
	case protocol.MethodExit:
		s.exit()
		return
	case protocol.MethodCancelRequest:
		s.cancelRequest(req.Params())
		return
	}
	switch s.lifecycle() {
	case stateNew:
		s.log.warnf("%s before initialize ignored", method)
		return
	case stateShutdown:
		s.log.warnf("%s after shutdown ignored", method)
		return
	}
	if _, err := dispatch(ctx, req); err != nil {
		s.log.warnf("%s: %v", method, err)
	}
}

func (s *server) cancelRequest(params jsonrpc2.RawMessage) {
	var p protocol.CancelParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		s.log.warnf("$/cancelRequest: bad params: %v", err)
		return
	}
	var id jsonrpc2.ID
	switch v := p.ID.(type) {
	case protocol.Integer:
		id = jsonrpc2.NewNumberID(int64(v))
	case protocol.String:
		id = jsonrpc2.NewStringID(string(v))
	default:
		s.log.warnf("$/cancelRequest: unusable id %v", p.ID)
		return
	}
	if cancel, ok := s.inflight.Load(id); ok {
		cancel.(context.CancelFunc)()
	}
}

// gate enforces the LSP lifecycle for requests.
func (s *server) gate(method string) error {
	switch st := s.lifecycle(); {
	case st == stateNew && method != protocol.MethodInitialize:
		return jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized: "+method)
	case st != stateNew && method == protocol.MethodInitialize:
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
	case st == stateShutdown:
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shutting down: "+method)
	}
	return nil
}

// inline requests are quick and order-sensitive, so they run on the read
// loop: initialize must precede everything, and shutdown must be in effect
// before an exit sent right behind it is read.
var inline = map[string]bool{protocol.MethodInitialize: true, protocol.MethodShutdown: true}

// implemented are the requests this server answers; others are
// MethodNotFound even when their params do not decode.
var implemented = map[string]bool{
	protocol.MethodInitialize: true, protocol.MethodShutdown: true, protocol.MethodTextDocumentHover: true,
	protocol.MethodTextDocumentCodeAction: true, protocol.MethodTextDocumentDiagnostic: true,
	protocol.MethodWorkspaceDiagnostic: true, protocol.MethodTextDocumentInlayHint: true,
	protocol.MethodTextDocumentCodeLens: true, protocol.MethodTextDocumentDefinition: true,
	protocol.MethodTextDocumentPrepareCallHierarchy: true, protocol.MethodCallHierarchyIncomingCalls: true,
	protocol.MethodWorkspaceExecuteCommand: true,
}

// wireError gives errors the codes LSP clients act on: bad params are
// InvalidParams (the protocol package reports them as ParseError, which
// clients read as a broken frame), and cancellation is RequestCancelled.
func wireError(method string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jsonrpc2.ErrParse) && !implemented[method]:
		return jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not found: "+method)
	case errors.Is(err, jsonrpc2.ErrParse):
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+err.Error())
	case errors.Is(err, context.Canceled):
		return protocol.ErrRequestCancelled
	}
	return err
}
