package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// maxFrame bounds a declared Content-Length. A bigger frame cannot be
// skipped safely (we would have to read it to find the next header), so it
// is the one framing error that still ends the connection.
const maxFrame = 1 << 29

// tolerantStream is the LSP header framing with one difference from
// jsonrpc2's own: a malformed frame (garbage header lines, a body that is not
// JSON, a JSON value that is not a JSON-RPC message) is answered or logged
// and skipped, where jsonrpc2's reader would end the connection and with it
// the editor session. Writes go through jsonrpc2's header stream unchanged.
type tolerantStream struct {
	in    *bufio.Reader
	out   jsonrpc2.Stream
	logf  func(format string, args ...any)
	frame []byte
}

func newTolerantStream(rwc io.ReadWriteCloser, logf func(string, ...any)) *tolerantStream {
	return &tolerantStream{in: bufio.NewReader(rwc), out: jsonrpc2.NewHeaderStream(rwc), logf: logf}
}

// ReadFrame returns the next well-formed JSON-RPC frame. jsonrpc2.Conn
// discovers this method by its name and prefers it over Read.
func (s *tolerantStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.readBody()
		if err != nil {
			return nil, 0, err
		}
		if s.acceptable(ctx, body) {
			return body, n, nil
		}
	}
}

// acceptable answers a malformed body the way JSON-RPC asks (a ParseError or
// InvalidRequest response) and reports whether the body may be dispatched.
func (s *tolerantStream) acceptable(ctx context.Context, body []byte) bool {
	if !json.Valid(body) {
		s.logf("malformed frame (not JSON, %d bytes) skipped", len(body))
		s.reject(ctx, jsonrpc2.ID{}, jsonrpc2.ErrParse)
		return false
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return true // jsonrpc2 answers bad batch members itself
	}
	if _, err := jsonrpc2.DecodeMessage(body); err != nil {
		s.logf("invalid JSON-RPC message skipped: %v", err)
		if id, isRequest := probe(body); isRequest {
			s.reject(ctx, id, err) // a malformed response gets no answer: its id is the client's
		}
		return false
	}
	return true
}

func (s *tolerantStream) reject(ctx context.Context, id jsonrpc2.ID, err error) {
	if _, werr := s.out.Write(ctx, jsonrpc2.NewResponse(id, nil, err)); werr != nil {
		s.logf("answering a malformed frame: %v", werr)
	}
}

// probe recovers the id of a message that failed validation, so that a
// caller waiting on it gets its error instead of hanging, and tells
// whether the message was meant as a request.
func probe(body []byte) (jsonrpc2.ID, bool) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return jsonrpc2.ID{}, true
	}
	isRequest := msg.Method != nil || (msg.ID == nil)
	var n int64
	if json.Unmarshal(msg.ID, &n) == nil {
		return jsonrpc2.NewNumberID(n), isRequest
	}
	var str string
	if json.Unmarshal(msg.ID, &str) == nil {
		return jsonrpc2.NewStringID(str), isRequest
	}
	return jsonrpc2.ID{}, isRequest
}

// readBody reads one header block and its body. Header lines that are not
// "Name: value" and header blocks without a usable Content-Length are logged
// and skipped, so stray bytes between frames cost one log line, not the
// session.
func (s *tolerantStream) readBody() ([]byte, int64, error) {
	length, consumed := -1, 0
	for {
		line, err := s.in.ReadString('\n')
		consumed += len(line)
		if err != nil {
			if err == io.EOF && consumed > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length > 0 {
				break
			}
			if consumed > 2 {
				s.logf("header block without a valid Content-Length skipped")
			}
			length, consumed = -1, 0
			continue
		}
		length = s.headerLine(line, length)
	}
	if length > maxFrame {
		return nil, 0, fmt.Errorf("frame of %d bytes exceeds the %d limit", length, maxFrame)
	}
	if cap(s.frame) < length {
		s.frame = make([]byte, length)
	}
	body := s.frame[:length]
	if _, err := io.ReadFull(s.in, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, err
	}
	return body, int64(consumed + length), nil
}

// headerLine folds one header line into the Content-Length seen so far.
func (s *tolerantStream) headerLine(line string, length int) int {
	// A body that lacked its trailing newline glues the next header onto its
	// last line; finding the header inside the line resynchronises.
	if i := indexFoldASCII(line, "content-length:"); i > 0 {
		line = line[i:]
	}
	name, value, ok := strings.Cut(line, ":")
	if !ok {
		s.logf("malformed header line %q ignored", truncate(line, 60))
		return length
	}
	if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
		return length
	}
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n <= 0 {
		s.logf("bad Content-Length %q ignored", truncate(value, 30))
		return -1
	}
	return n
}

// indexFoldASCII is strings.Index ignoring ASCII case, as a byte offset
// into s (strings.ToLower changes the length of invalid UTF-8, whose bytes
// become U+FFFD, so an index into the lowered line could fall outside it).
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

// Read implements jsonrpc2.Stream for completeness; jsonrpc2.Conn uses ReadFrame.
func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	body, n, err := s.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	return msg, n, err
}

func (s *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.Write(ctx, msg)
}

// WriteFrame lets jsonrpc2 write batch responses in one frame.
func (s *tolerantStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	fw, ok := s.out.(interface {
		WriteFrame(context.Context, []byte) (int64, error)
	})
	if !ok {
		return 0, fmt.Errorf("stream cannot write raw frames")
	}
	return fw.WriteFrame(ctx, data)
}

func (s *tolerantStream) Close() error { return s.out.Close() }

// lspCodec marshals payloads with the protocol package's union-aware codec,
// as protocol.NewServer would; we build the connection ourselves to control
// ordering and error handling, so we need our own copy of it.
type lspCodec struct{}

func (lspCodec) Marshal(v any) ([]byte, error) {
	if raw, ok := v.(jsonrpc2.RawMessage); ok {
		if raw == nil {
			return []byte("null"), nil
		}
		return raw, nil
	}
	return protocol.Marshal(v)
}

func (lspCodec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	// protocol.Unmarshal copies the message before decoding a struct, but
	// decodes a union at the root (a code action list, say) from data
	// itself, so its strings would alias the stream's read buffer, which
	// the next message overwrites. A private copy for every message rules
	// that out for any type.
	return protocol.Unmarshal(append([]byte(nil), data...), v)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
