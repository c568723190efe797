package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// quiet is how long the first burst of publications must pause before the
// workspace counts as checked.
const quiet = 500 * time.Millisecond

// waitIndexed waits for the indexing $/progress to end and the first
// burst of publishDiagnostics (the whole-workspace check) to finish.
func (s *session) waitIndexed(ctx context.Context) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	indexTokens := map[string]bool{}
	var first, last time.Time
	progress := "no $/progress seen"
	for {
		wctx, wcancel := ctx, context.CancelFunc(func() {})
		if !first.IsZero() {
			wctx, wcancel = context.WithDeadline(ctx, last.Add(quiet))
		}
		ev, err := s.cl.next(wctx)
		wcancel()
		switch {
		case err != nil && !first.IsZero() && ctx.Err() == nil:
			s.res.FirstDiagSeconds = first.Sub(start).Seconds()
			s.res.FirstDiagAfterInit = first.Sub(s.initStart).Seconds()
			s.res.ReadySeconds = last.Sub(start).Seconds()
			s.res.RSSAfterIndexMB = procStatus(s.cl.pid())["VmRSS"]
			s.res.HotFindings = len(s.diags)
			return nil
		case err != nil:
			return fmt.Errorf("waiting for the first diagnostics: %v after %v (%s)", err, time.Since(start).Round(time.Millisecond), progress)
		}
		if ev.method == "$/progress" {
			progress = s.noteProgress(ev, indexTokens, start)
			continue
		}
		if ev.method == "textDocument/publishDiagnostics" {
			s.isHot(ev)
			if first.IsZero() {
				first = ev.at
			}
			last = ev.at
		}
	}
}

// noteProgress tracks the indexing progress tokens and says what it saw.
func (s *session) noteProgress(ev event, tokens map[string]bool, start time.Time) string {
	var p progressParams
	if json.Unmarshal(ev.params, &p) != nil {
		return "unreadable $/progress"
	}
	tok := fmt.Sprint(p.Token)
	if p.Value.Kind == "begin" && strings.Contains(strings.ToLower(p.Value.Title), "index") {
		tokens[tok] = true
	}
	if p.Value.Kind == "end" && tokens[tok] {
		s.res.IndexSeconds = ev.at.Sub(start).Seconds()
		return "indexing ended after " + ev.at.Sub(start).Round(time.Millisecond).String()
	}
	return "last $/progress: " + p.Value.Kind + " " + p.Value.Title
}

// open sends didOpen for the hot file, then a hover: the server answers
// hovers from results at least as new as every change made before, so the
// answer marks the end of the check that includes the open buffer.
func (s *session) open(context.Context) error {
	path := filepath.Join(s.root, filepath.FromSlash(s.hot.Path))
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s.uri, s.version, s.text = fileURI(path), 1, strings.Split(string(raw), "\n")
	if got := s.at(s.hot.Flag, 4); got != "True" {
		return fmt.Errorf("internal error: the flag position %v holds %q, not True", s.hot.Flag, got)
	}
	start := time.Now()
	err = s.cl.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": s.uri, "languageId": "python", "version": s.version, "text": string(raw)}})
	if err != nil {
		return err
	}
	if _, err := s.hover(s.hot.Hover[0]); err != nil {
		return err
	}
	s.res.OpenSeconds = time.Since(start).Seconds()
	if len(s.diags) == 0 {
		return errors.New("the hot file has no findings after indexing, so edits would publish nothing; is PAL101 working?")
	}
	return nil
}

// at returns n bytes of the buffer at p ("" if out of range).
func (s *session) at(p Pos, n int) string {
	if p.Line >= len(s.text) || p.Col+n > len(s.text[p.Line]) {
		return ""
	}
	return s.text[p.Line][p.Col : p.Col+n]
}

func (s *session) hover(p Pos) (json.RawMessage, error) {
	return s.cl.call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": s.uri},
		"position":     map[string]any{"line": p.Line, "character": p.Col}}, s.timeout)
}

// hovers measures n hovers, cycling over the kernel calls the generator
// recorded and the first finding.
func (s *session) hovers(_ context.Context, n int) error {
	d := s.target().Range.Start
	targets := append(append([]Pos(nil), s.hot.Hover...), Pos{d.Line, d.Character})
	var samples []time.Duration
	for i := 0; i < n; i++ {
		start := time.Now()
		res, err := s.hover(targets[i%len(targets)])
		if err != nil {
			return err
		}
		samples = append(samples, time.Since(start))
		if string(res) == "null" || len(res) == 0 {
			s.res.HoverEmpty++
		}
	}
	s.res.Hover = summarize(samples, 0)
	return nil
}
