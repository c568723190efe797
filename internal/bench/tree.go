package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// runTree measures an existing tree (-dir) instead of a generated corpus:
// the parse-only floor over the Python files `check` discovers there, and
// the cold, cache-fill and warm checks, and with -edits N an editor
// session of N one-line edits (edits_tree.go). This is how the targets for
// "a tree like JAX's" are measured on JAX's own checkout.
func (b *bench) runTree(ctx context.Context, dir string) *sizeResult {
	r := &sizeResult{}
	fail := func(what string, err error) {
		r.Errors = append(r.Errors, what+": "+err.Error())
		b.logf("%s failed: %v", what, err)
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		fail("reading the tree", err)
		return r
	}
	r.Tree = abs
	b.logf("reading %s", abs)
	start := time.Now()
	py, err := readTree(ctx, abs)
	if err != nil {
		fail("reading the tree", err)
		return r
	}
	r.GenSeconds = time.Since(start).Seconds()
	for _, f := range py {
		n := lineCount(f.Src)
		r.Lines += n
		r.Bytes += len(f.Src)
		if importsJAX(f.Src) {
			r.JAXLines += n
		}
	}
	r.PyFiles = len(py)
	r.Target = r.Lines
	if len(py) == 0 {
		fail("reading the tree", fmt.Errorf("no Python files under %s", abs))
		return r
	}
	b.parse(ctx, r, abs, len(py))
	b.checks(ctx, r, abs, fail)
	if b.o.edits > 0 && ctx.Err() == nil {
		b.treeEditor(ctx, r, abs, py, fail)
	}
	return r
}

// readTree reads the files `check` would: discovered with the default
// excludes and .gitignore files.
func readTree(ctx context.Context, dir string) ([]File, error) {
	found, _, err := workspace.Discover([]string{dir}, workspace.DiscoverOptions{WorkDir: dir})
	if err != nil {
		return nil, err
	}
	var out []File
	for _, l := range workspace.ReadAll(ctx, found) {
		if l.Err == nil {
			out = append(out, File{Path: l.Path, Src: l.Src})
		}
	}
	return out, ctx.Err()
}

// importsJAX reports whether a file has an import statement naming jax.
func importsJAX(src []byte) bool {
	for _, line := range bytes.Split(src, []byte("\n")) {
		l := bytes.TrimLeft(line, " \t")
		if bytes.HasPrefix(l, []byte("import jax")) || bytes.HasPrefix(l, []byte("from jax")) {
			return true
		}
	}
	return false
}

// lineCount counts src's lines, a last line without a newline included.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
