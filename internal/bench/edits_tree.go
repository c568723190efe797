package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// The editor session on an existing tree (-dir PATH -edits N). The
// hot-file cycle (edits.go) needs the generator's knowledge of the hot
// file, so a real tree gets edits of its own: ` + 0` appended to the
// expression of a one-line assignment or expression statement
//
//	y = jnp.dot(a, b)        ->  y = jnp.dot(a, b) + 0
//	o_ref[...] += acc         ->  o_ref[...] += acc + 0
//	pl.store(o_ref, x)        ->  pl.store(o_ref, x) + 0
//
// at a line drawn uniformly from the lines of the files the analysis
// reads (those `check` discovers, which the server indexes), so a file is
// chosen in proportion to its size. It is chosen over inserting a
// statement because it edits code that already runs, as most keystrokes
// do: the value of an existing computation changes (the interpreter sees
// a new binary operation where the old expression was), no new name
// appears, and no line moves, so the measurement is of re-checking, not of
// re-publishing every finding below an inserted line. The file keeps
// parsing: the suffix goes at the end of the expression's node, before a
// trailing comment, and only statements alone on one line are edited.
//
// One sample: didOpen of the file with its text on disk, a hover there
// (answered from results that include the open buffer), then the edit as
// one incremental didChange, timed until a hover in the file is answered:
// the server answers hovers from the newest results only, so this is
// didChange -> fresh results for that version, the definition the
// editor series on a generated corpus use (edits_anywhere.go). A
// publishDiagnostics for that version, if the file's set changed, comes
// from those same results. Then the edit is undone and the file closed,
// unmeasured. Nothing is written to disk.

const treeEditText = " + 0"

// treeEdit is one edit: treeEditText inserted at byte col of line.
type treeEdit struct {
	path string // absolute
	src  []byte // the file on disk
	line int    // 0-based
	col  int    // byte offset in the line
}

// apply returns the file with the edit made.
func (e treeEdit) apply() []byte {
	off := lineStart(e.src, e.line) + e.col
	out := make([]byte, 0, len(e.src)+len(treeEditText))
	out = append(append(append(out, e.src[:off]...), treeEditText...), e.src[off:]...)
	return out
}

// col16 is the edit's column in UTF-16 code units, the protocol's default
// position encoding (the bench client offers no other).
func (e treeEdit) col16() int {
	ls := lineStart(e.src, e.line)
	n := 0
	for _, r := range string(e.src[ls : ls+e.col]) {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}

func lineStart(src []byte, line int) int {
	off := 0
	for i := 0; i < line; i++ {
		j := bytes.IndexByte(src[off:], '\n')
		if j < 0 {
			return len(src)
		}
		off += j + 1
	}
	return off
}

// pickTreeEdits chooses n edits at random, reproducibly with seed: a line
// of the files drawn uniformly, kept if expressionEnds has an edit point
// on it. Files that do not parse cleanly are never edited.
func pickTreeEdits(files []File, n int, seed uint64) []treeEdit {
	ends := make([]int, len(files)) // cumulative line counts
	lines := make([]int, len(files))
	points := make([]map[int]int, len(files)) // parsed when first drawn
	total := 0
	for i, f := range files {
		lines[i] = bytes.Count(f.Src, []byte("\n")) + 1
		total += lines[i]
		ends[i] = total
	}
	if total == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x7ee))
	var out []treeEdit
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		at := rng.IntN(total)
		i, _ := slices.BinarySearch(ends, at+1)
		if points[i] == nil {
			points[i] = expressionEnds(files[i].Src)
		}
		k := at - (ends[i] - lines[i])
		if col, ok := points[i][k]; ok {
			out = append(out, treeEdit{path: files[i].Path, src: files[i].Src, line: k, col: col})
		}
	}
	return out
}

// expressionEnds maps 0-based lines to the byte column where ` + 0` can
// go: lines holding exactly one statement of a module or block, an
// assignment with a value (the innermost right-hand side of a chain), an
// augmented assignment, or an expression statement that is not a string
// (a docstring is no code), the whole statement on that one line with
// nothing after it but blanks and a comment. Empty if src does not parse
// cleanly or is not UTF-8.
func expressionEnds(src []byte) map[int]int {
	out := map[int]int{}
	if !utf8.Valid(src) {
		return out
	}
	t, err := pyparse.Parse(src)
	if err != nil || len(t.SyntaxErrors()) > 0 {
		return out
	}
	for id := 1; id < len(t.Nodes); id++ {
		nid := pyparse.NodeID(id)
		n := t.N(nid)
		if n.Kind != pyparse.KindExpressionStatement || n.Parent < 0 {
			continue
		}
		if pk := t.Kind(n.Parent); pk != pyparse.KindModule && pk != pyparse.KindBlock {
			continue
		}
		start, end := int(n.Start), int(n.End)
		if bytes.IndexByte(src[start:end], '\n') >= 0 || !aloneOnLine(src, start, end) {
			continue
		}
		at, ok := editPoint(t, nid)
		if !ok {
			continue
		}
		ls := bytes.LastIndexByte(src[:start], '\n') + 1
		out[bytes.Count(src[:start], []byte("\n"))] = at - ls
	}
	return out
}

// editPoint is the offset after the expression that ` + 0` extends: the
// innermost right-hand side of an assignment, or the last expression of an
// expression statement.
func editPoint(t *pyparse.Tree, stmt pyparse.NodeID) (int, bool) {
	var kids []pyparse.NodeID
	for _, k := range t.NamedChildren(stmt) {
		if t.Kind(k) != pyparse.KindComment {
			kids = append(kids, k)
		}
	}
	if len(kids) == 0 {
		return 0, false
	}
	k := kids[len(kids)-1]
	if len(kids) == 1 {
		switch t.Kind(k) {
		case pyparse.KindString, pyparse.KindConcatenatedString:
			return 0, false // a docstring, or a string as a comment
		}
	}
	for t.Kind(k) == pyparse.KindAssignment || t.Kind(k) == pyparse.KindAugAssignment {
		r := t.ChildByField(k, pyparse.FieldRight)
		if r == pyparse.NoNode {
			return 0, false // an annotation without a value
		}
		k = r
	}
	return int(t.N(k).End), true
}

// aloneOnLine reports whether only blanks precede src[start:end] on its
// line and only blanks or a comment follow it.
func aloneOnLine(src []byte, start, end int) bool {
	ls := bytes.LastIndexByte(src[:start], '\n') + 1
	if len(bytes.Trim(src[ls:start], " \t")) > 0 {
		return false
	}
	rest := src[end:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = bytes.TrimLeft(rest, " \t\r")
	return len(rest) == 0 || rest[0] == '#'
}

// treeSample is one edit and its latency.
type treeSample struct {
	Path string  `json:"path"`
	Line int     `json:"line"` // 1-based
	Col  int     `json:"col"`  // 0-based, bytes: where ` + 0` went
	MS   float64 `json:"ms"`
}

// noteTree records one tree edit's latency.
func (s *session) noteTree(ed treeEdit, d time.Duration) {
	s.treeSamples = append(s.treeSamples, d)
	s.res.TreeSamples = append(s.res.TreeSamples, treeSample{ed.path, ed.line + 1, ed.col, float64(d.Microseconds()) / 1000})
	s.res.Tree = summarize(s.treeSamples, 0)
	if d <= anywhereFast {
		s.res.TreeFast++
	}
}

func (s *session) editTree(ed treeEdit) (time.Duration, error) {
	uri := fileURI(ed.path)
	doc := map[string]any{"uri": uri}
	at := map[string]any{"line": ed.line, "character": ed.col16()}
	fresh := func() error { // a hover waits for the newest results
		_, err := s.cl.call("textDocument/hover", map[string]any{"textDocument": doc, "position": at}, s.perEdit)
		return err
	}
	if err := s.cl.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "python", "version": 1, "text": string(ed.src)}}); err != nil {
		return 0, err
	}
	defer s.cl.notify("textDocument/didClose", map[string]any{"textDocument": doc})
	if err := fresh(); err != nil {
		return 0, err
	}
	change := func(version int, rng map[string]any, text string) error {
		return s.cl.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"range": rng, "text": text}}})
	}
	start := time.Now()
	if err := change(2, map[string]any{"start": at, "end": at}, treeEditText); err != nil {
		return 0, err
	}
	if err := fresh(); err != nil {
		return 0, err
	}
	d := time.Since(start)
	end := map[string]any{"line": ed.line, "character": ed.col16() + len(treeEditText)}
	if err := change(3, map[string]any{"start": at, "end": end}, ""); err != nil {
		return 0, err
	}
	return d, fresh()
}

// treeEditor runs the editor session on an existing tree: initialize,
// the first diagnostics, then the edits; the server's memory at the end.
// With -vs, a server of that binary runs on the tree too (started after
// this one is ready, so that the first diagnostics are not contended),
// and every edit is made in both, in turn, the order alternating, so
// that the load of a busy machine falls on both alike.
func (b *bench) treeEditor(ctx context.Context, r *sizeResult, root string, files []File, fail func(string, error)) {
	edits := pickTreeEdits(files, b.o.edits, b.o.seed)
	b.logf("editor session (%d edits of %d asked for)", len(edits), b.o.edits)
	if len(edits) < b.o.edits {
		fail("editor", fmt.Errorf("found only %d edit points", len(edits)))
		return
	}
	perEdit := 30 * time.Second
	if r.Cold != nil {
		perEdit = max(perEdit, time.Duration(10*r.Cold.Seconds*float64(time.Second)))
	}
	start := func(bin, tag string) (*session, error) {
		env := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(b.tmp, "cache-tree-editor-"+tag))
		if b.o.profile != "" {
			if err := os.MkdirAll(b.o.profile, 0o755); err != nil {
				return nil, err
			}
			env = append(env, "PALLAS_LS_CPUPROFILE="+filepath.Join(b.o.profile, "editor-"+tag+".prof"))
		}
		cl, err := startServer(ctx, bin, root, env)
		if err != nil {
			return nil, err
		}
		s := &session{cl: cl, root: root, timeout: b.o.timeout, perEdit: perEdit}
		for _, step := range []func(context.Context) error{s.initialize, s.waitIndexed} {
			if err := step(ctx); err != nil {
				cl.close()
				return nil, fmt.Errorf("%s: %w", tag, err)
			}
		}
		s.res.CPUReadySeconds = procCPU(cl.pid())
		return s, nil
	}
	s, err := start(b.bin, "this")
	if err != nil {
		fail("editor", err)
		return
	}
	defer s.cl.close()
	r.Editor = &s.res
	sessions := []*session{s}
	if b.o.vs != "" {
		vs, err := start(b.o.vs, "vs")
		if err != nil {
			fail("editor -vs", err)
			return
		}
		defer vs.cl.close()
		r.EditorVs, r.VsBinary = &vs.res, b.o.vs
		sessions = append(sessions, vs)
	}
	for k, ed := range edits {
		if ctx.Err() != nil {
			fail("editor", ctx.Err())
			return
		}
		order := sessions
		if k%2 == 1 {
			order = slices.Clone(sessions)
			slices.Reverse(order)
		}
		for _, s := range order {
			d, err := s.editTree(ed)
			if err != nil {
				fail("editor", fmt.Errorf("an edit of %s at line %d: %w", ed.path, ed.line+1, err))
				return
			}
			s.noteTree(ed, d)
		}
	}
	for _, s := range sessions {
		st := procStatus(s.cl.pid())
		s.res.RSSEndMB, s.res.PeakRSSMB = st["VmRSS"], st["VmHWM"]
		s.res.CPUEndSeconds = procCPU(s.cl.pid())
	}
}
