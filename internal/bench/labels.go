package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"time"
)

// -labels-vs: what computing the context labels adds to an edit's
// latency. Two servers run on the same tree at once: the binary under
// test, whose client announces inlay hints and asks for the edited file's
// hints after each edit's results (as an editor showing them does), and a
// build without labels (-labels-vs), whose client does not. The edits are
// the same and interleaved, their order alternating, so that the load of
// a busy machine falls on both alike. Compared: the medians of edit to
// results (the labels are computed in the check); reported besides: edit
// to the hints' answer.
//
// On a generated corpus the edits are the hot-file cycle (edits.go,
// didChange -> publishDiagnostics); on a tree (-dir) they are the random
// one-line edits of edits_anywhere.go (didChange -> a fresh hover).

type labelsResult struct {
	Tree      string  `json:"tree"`
	Series    string  `json:"series"`
	With      latency `json:"with_labels"`
	Without   latency `json:"without_labels"`
	Hints     latency `json:"edit_to_inlay_hints"`
	Overhead  float64 `json:"median_overhead_percent"`
	Baseline  string  `json:"baseline_binary"`
	Interlace int     `json:"pairs"`
}

func (b *bench) runLabels(ctx context.Context, stdout io.Writer) int {
	base, err := filepath.Abs(b.o.labelsVs)
	if err != nil {
		fmt.Fprintln(b.log, "bench:", err)
		return 2
	}
	var results []labelsResult
	failed := false
	run := func(root string, c *Corpus, hot bool) {
		r, err := b.labels(ctx, base, root, c, hot)
		if err != nil {
			b.logf("labels on %s: %v", root, err)
			failed = true
			return
		}
		results = append(results, *r)
	}
	if b.o.dir != "" {
		abs, err := filepath.Abs(b.o.dir)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		var py []File
		if err == nil {
			py, err = readTree(ctx, abs)
		}
		if err != nil {
			fmt.Fprintln(b.log, "bench:", err)
			return 1
		}
		run(abs, &Corpus{Files: py}, false)
	}
	for _, n := range b.o.sizes {
		if b.o.dir != "" {
			break // -dir replaces the generated corpus
		}
		c := Generate(Config{Lines: n, Seed: b.o.seed})
		dir, err := b.corpusDir(n, c)
		if err != nil {
			fmt.Fprintln(b.log, "bench:", err)
			return 1
		}
		run(dir, c, true)
		if b.o.keep == "" {
			os.RemoveAll(dir)
		}
	}
	if b.o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return 1
		}
	} else {
		fmt.Fprintf(stdout, "context labels: edit latency with labels (this binary) vs without (%s), interleaved; %s\n", base, b.info)
		for _, r := range results {
			fmt.Fprintf(stdout, "%s (%s, %d pairs): median %.1f ms with, %.1f ms without: %+.1f%%; p95 %.1f / %.1f ms; edit to inlay hints: median %.1f ms, p95 %.1f ms\n",
				r.Tree, r.Series, r.Interlace, r.With.MedianMS, r.Without.MedianMS, r.Overhead, r.With.P95MS, r.Without.P95MS, r.Hints.MedianMS, r.Hints.P95MS)
		}
	}
	if failed {
		return 1
	}
	return 0
}

func (b *bench) labels(ctx context.Context, base, root string, c *Corpus, hot bool) (*labelsResult, error) {
	perEdit := 2 * time.Minute
	mk := func(bin string, labels bool, tag string) (*session, error) {
		env := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(b.tmp, "cache-labels-"+tag))
		cl, err := startServer(ctx, bin, root, env)
		if err != nil {
			return nil, err
		}
		s := &session{cl: cl, root: root, hot: c.Hot, timeout: b.o.timeout, perEdit: perEdit, labels: labels}
		steps := []func(context.Context) error{s.initialize, s.waitIndexed}
		if hot {
			steps = append(steps, s.open)
		}
		for _, step := range steps {
			if err := step(ctx); err != nil {
				cl.close()
				return nil, fmt.Errorf("%s: %w", tag, err)
			}
		}
		return s, nil
	}
	b.logf("labels: starting both servers on %s", root)
	with, err := mk(b.bin, true, "with")
	if err != nil {
		return nil, err
	}
	defer with.cl.close()
	without, err := mk(base, false, "without")
	if err != nil {
		return nil, err
	}
	defer without.cl.close()

	var line int
	if hot {
		line = with.target().Range.Start.Line
	}
	var edits []anywhereEdit
	if !hot {
		edits = pickAnywhere(c, b.o.edits, 1)
	}
	var dw, dwo, dh []time.Duration
	for k := 0; k < b.o.edits; k++ {
		if !hot && k >= len(edits) {
			break
		}
		order := []*session{with, without}
		if k%2 == 1 {
			order = []*session{without, with}
		}
		for _, s := range order {
			var d time.Duration
			var err error
			if hot {
				d, err = s.edit(ctx, s.nextEdit(k, line))
			} else {
				d, err = s.editAnywhere(edits[k])
			}
			if err != nil {
				return nil, fmt.Errorf("edit %d (labels %v): %w", k, s.labels, err)
			}
			if s.labels {
				dw, dh = append(dw, d), append(dh, s.hintLatency)
			} else {
				dwo = append(dwo, d)
			}
		}
	}
	r := &labelsResult{Tree: root, Baseline: base, With: summarize(dw, 0), Without: summarize(dwo, 0), Hints: summarize(dh, 0), Interlace: len(dw)}
	r.Series = "anywhere edits, didChange -> fresh hover"
	if hot {
		r.Series = "hot-file edits, didChange -> publishDiagnostics"
	}
	if r.Without.MedianMS > 0 {
		r.Overhead = 100 * (r.With.MedianMS - r.Without.MedianMS) / r.Without.MedianMS
	}
	return r, nil
}

// inlayHints asks for a whole file's inlay hints and checks the answer is
// a list.
func (s *session) inlayHints(uri string) error {
	raw, err := s.cl.call("textDocument/inlayHint", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range": map[string]any{"start": map[string]any{"line": 0, "character": 0},
			"end": map[string]any{"line": 1 << 30, "character": 0}}}, s.perEdit)
	if err != nil {
		return err
	}
	var hints []json.RawMessage
	if err := json.Unmarshal(raw, &hints); err != nil {
		return fmt.Errorf("inlayHint answered %s", raw)
	}
	return nil
}
