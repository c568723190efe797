package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// The hot-file cycle (edits.go) measures the worst one-line edit: a flag
// in a function the analysis runs, whose change reaches other files'
// findings. Most keystrokes in a large workspace land elsewhere: in plain
// Python that no kernel reaches, in helpers no entry calls, in modules
// the analysis never runs. This series types one line of code at random
// places of the whole corpus and measures how long fresh results take.
//
// One sample: open a random file, insert `_bench_edit = 1` before a random
// statement line (same indentation), and time didChange -> a hover in that
// file answered (the server answers a hover from the newest results only,
// so this is the re-check latency, whatever was published); then undo the
// edit and close the file, unmeasured.

const anywhereStmt = "_bench_edit = 1"

// anywhereFast is the latency a keystroke should stay under.
const anywhereFast = 30 * time.Millisecond

// anywhereEdit is one insertion point.
type anywhereEdit struct {
	path string
	text []string // the file's lines
	line int      // insert before this line
}

// pickAnywhere chooses n insertion points at random, reproducibly: a line
// of the corpus drawn uniformly (so a file is chosen in proportion to its
// size), kept if a statement of a module or a block starts it, so that a
// statement inserted before it at its indentation keeps the file valid.
func pickAnywhere(c *Corpus, n int, seed uint64) []anywhereEdit {
	files := c.Python()
	texts := make([][]string, len(files))
	starts := make([]map[int]bool, len(files)) // parsed when first drawn
	ends := make([]int, len(files))            // cumulative line counts
	total := 0
	for i, f := range files {
		texts[i] = strings.Split(string(f.Src), "\n")
		total += len(texts[i])
		ends[i] = total
	}
	rng := rand.New(rand.NewPCG(seed, 0xed175))
	var out []anywhereEdit
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		at := rng.IntN(total)
		i, _ := slices.BinarySearch(ends, at+1)
		if starts[i] == nil {
			starts[i] = statementLines(files[i].Src)
		}
		if k := at - (ends[i] - len(texts[i])); starts[i][k] {
			out = append(out, anywhereEdit{path: files[i].Path, text: texts[i], line: k})
		}
	}
	return out
}

// statementLines returns the 0-based lines that a statement of the module
// or of a block starts, at the line's first non-blank character.
func statementLines(src []byte) map[int]bool {
	out := map[int]bool{}
	t, err := pyparse.Parse(src)
	if err != nil {
		return out
	}
	var lineStarts []int // of lines 1, 2, ...
	for i, b := range src {
		if b == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	for id := 1; id < len(t.Nodes); id++ {
		n := t.N(pyparse.NodeID(id))
		if !n.Named() || n.Kind == pyparse.KindComment || n.Parent < 0 {
			continue
		}
		if pk := t.Kind(n.Parent); pk != pyparse.KindModule && pk != pyparse.KindBlock {
			continue
		}
		if n.Kind.String() == "case_clause" { // a match statement's block holds cases
			continue
		}
		line, _ := slices.BinarySearch(lineStarts, int(n.Start)+1) // lines starting at or before it
		ls := 0
		if line > 0 {
			ls = lineStarts[line-1]
		}
		if len(bytes.TrimLeft(src[ls:n.Start], " ")) == 0 {
			out[line] = true
		}
	}
	return out
}

// editsAnywhere measures n such edits.
func (s *session) editsAnywhere(ctx context.Context, c *Corpus, n int) error {
	var samples []time.Duration
	for _, ed := range pickAnywhere(c, n, 1) {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := s.editAnywhere(ed)
		if err != nil {
			return fmt.Errorf("an edit of %s at line %d: %w", ed.path, ed.line+1, err)
		}
		samples = append(samples, d)
	}
	s.res.Anywhere = summarize(samples, 0)
	for _, d := range samples {
		if d <= anywhereFast {
			s.res.AnywhereFast++
		}
	}
	return nil
}

func (s *session) editAnywhere(ed anywhereEdit) (time.Duration, error) {
	path := ed.path // a tree's files (readTree) have absolute paths
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.root, filepath.FromSlash(path))
	}
	uri := fileURI(path)
	doc := map[string]any{"uri": uri}
	fresh := func() error { // a hover waits for the newest results
		_, err := s.cl.call("textDocument/hover", map[string]any{"textDocument": doc,
			"position": map[string]any{"line": ed.line, "character": 0}}, s.perEdit)
		return err
	}
	if err := s.cl.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "python", "version": 1, "text": strings.Join(ed.text, "\n")}}); err != nil {
		return 0, err
	}
	defer s.cl.notify("textDocument/didClose", map[string]any{"textDocument": doc})
	if err := fresh(); err != nil {
		return 0, err
	}
	indent := len(ed.text[ed.line]) - len(strings.TrimLeft(ed.text[ed.line], " "))
	at := map[string]any{"line": ed.line, "character": 0}
	change := func(version int, rng map[string]any, text string) error {
		return s.cl.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"range": rng, "text": text}}})
	}
	start := time.Now()
	if err := change(2, map[string]any{"start": at, "end": at}, strings.Repeat(" ", indent)+anywhereStmt+"\n"); err != nil {
		return 0, err
	}
	if err := fresh(); err != nil {
		return 0, err
	}
	d := time.Since(start)
	if s.labels { // what a client that shows labels asks next
		if err := s.inlayHints(uri); err != nil {
			return 0, err
		}
		s.hintLatency = time.Since(start)
	}
	undo := map[string]any{"start": at, "end": map[string]any{"line": ed.line + 1, "character": 0}}
	if err := change(3, undo, ""); err != nil {
		return 0, err
	}
	return d, fresh()
}
