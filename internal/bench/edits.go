package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The server publishes a file's diagnostics only when its set changed, so
// every edit is chosen to change the hot file's set, in a cycle of six
// that leaves the buffer as it found it:
//
//	0 insert a comment line at the top     every finding moves down a line
//	1 delete it                            and back up
//	2 append `# pallas-ls: ignore[PAL101]` to a finding's line   one finding fewer
//	3 remove it                            the finding is back
//	4 remote=True -> remote=False in the debug entry point       its kernel stops communicating: a finding goes
//	5 remote=False -> remote=True          the finding is back
//
// Latency runs from writing didChange to reading the publishDiagnostics
// for that document version; it includes the server's debounce.
const ignoreComment = "  # pallas-ls: ignore[PAL101]"

// change is one incremental content change.
type change struct {
	from, to Pos
	text     string
}

func (s *session) nextEdit(k int, findingLine int) change {
	f := s.hot.Flag
	switch k % 6 {
	case 0:
		return change{Pos{0, 0}, Pos{0, 0}, fmt.Sprintf("# edit %d\n", k)}
	case 1:
		return change{Pos{0, 0}, Pos{1, 0}, ""}
	case 2:
		end := Pos{findingLine, len(s.text[findingLine])}
		return change{end, end, ignoreComment}
	case 3:
		n := len(s.text[findingLine])
		return change{Pos{findingLine, n - len(ignoreComment)}, Pos{findingLine, n}, ""}
	case 4:
		return change{f, Pos{f.Line, f.Col + len("True")}, "False"}
	default:
		return change{f, Pos{f.Line, f.Col + len("False")}, "True"}
	}
}

// edits measures n edits. An edit whose publication does not come within
// the per-edit limit is counted as a timeout; three in a row end the test.
func (s *session) edits(ctx context.Context, n int) error {
	line := s.target().Range.Start.Line
	var samples []time.Duration
	timeouts, streak := 0, 0
	for k := 0; k < n; k++ {
		d, err := s.edit(ctx, s.nextEdit(k, line))
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			timeouts++
			streak++
			if streak == 3 {
				s.res.Edits = summarize(samples, timeouts)
				return fmt.Errorf("three edits in a row got no publishDiagnostics within %v; stderr: %s", s.perEdit, s.cl.stderr)
			}
		case err != nil:
			return err
		default:
			streak = 0
			samples = append(samples, d)
		}
	}
	s.res.Edits = summarize(samples, timeouts)
	return nil
}

// target is the finding the ignore comment goes on: the first error (the
// server also publishes info-level hints), else the first finding.
func (s *session) target() lspDiagnostic {
	for _, d := range s.diags {
		if d.Severity == 1 {
			return d
		}
	}
	return s.diags[0]
}

// edit applies c to the buffer, sends it, and waits for the publication
// of the new version.
func (s *session) edit(ctx context.Context, c change) (time.Duration, error) {
	s.apply(c)
	s.version++
	params := map[string]any{
		"textDocument": map[string]any{"uri": s.uri, "version": s.version},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{
				"start": map[string]any{"line": c.from.Line, "character": c.from.Col},
				"end":   map[string]any{"line": c.to.Line, "character": c.to.Col}},
			"text": c.text}},
	}
	start := time.Now()
	if err := s.cl.notify("textDocument/didChange", params); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.perEdit)
	defer cancel()
	for {
		ev, err := s.cl.next(ctx)
		if err != nil {
			return 0, err
		}
		if p, ok := s.isHot(ev); ok && p.Version != nil && *p.Version >= s.version {
			if s.labels { // what a client that shows labels asks next
				if err := s.inlayHints(s.uri); err != nil {
					return 0, err
				}
				s.hintLatency = time.Since(start)
			}
			return ev.at.Sub(start), nil
		}
	}
}

// apply mirrors a change in the local copy of the buffer.
func (s *session) apply(c change) {
	text := strings.Join(s.text, "\n")
	from, to := s.offset(c.from), s.offset(c.to)
	s.text = strings.Split(text[:from]+c.text+text[to:], "\n")
}

func (s *session) offset(p Pos) int {
	n := 0
	for _, l := range s.text[:p.Line] {
		n += len(l) + 1
	}
	return n + p.Col
}
