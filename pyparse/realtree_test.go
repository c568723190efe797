package pyparse

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealTree compares the parser with CPython on every Python file of
// real trees, named by $PALLAS_REALTREE (directories separated by the
// path-list separator, ':' on Unix). Every file CPython parses must parse
// without a syntax error, into a valid tree, with no gap's shape left
// (gapLeft). CPython is $PALLAS_PYTHON or python3 on PATH; its
// version decides what it accepts. The real trees are not in the
// repository, so the test skips without them:
//
//	PALLAS_REALTREE=/work/repos/jax PALLAS_PYTHON=python3.13 go test ./pyparse -run RealTree -v
func TestRealTree(t *testing.T) {
	paths := realTreeFiles(t)
	python := cpython()
	if python == "" {
		t.Skip("no python3 to compare with")
	}
	version, ok := cpythonVerdicts(t, python, paths)
	var accepted, rawFlagged, flagged, repaired int
	for i, p := range paths {
		if !ok[i] {
			continue
		}
		accepted++
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		raw, _, err := parseRaw(src)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		tr, _ := Parse(src)
		if raw.badNodes() > 0 {
			rawFlagged++
		}
		if len(tr.Nodes) != len(raw.Nodes) || shape(tr, 0) != shape(raw, 0) {
			repaired++
		}
		if errs := tr.SyntaxErrors(); len(errs) > 0 {
			flagged++
			if flagged <= 20 {
				e := errs[0].Span
				t.Errorf("%s:%d: CPython %s parses it, pyparse reports a syntax error at %q", p,
					1+bytes.Count(src[:e.Start], []byte("\n")), version, firstLine(src[e.Start:e.End]))
			}
		}
		if err := checkTree(tr); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if gap := gapLeft(tr); gap != "" {
			t.Errorf("%s: %s", p, gap)
		}
	}
	t.Logf("%d Python files; CPython %s parses %d; tree-sitter alone reports syntax errors in %d of those, pyparse in %d; %d trees repaired",
		len(paths), version, accepted, rawFlagged, flagged, repaired)
}

// realTreeFiles lists the regular .py files under the trees named by
// $PALLAS_REALTREE (symbolic links and .git are not followed), or skips.
func realTreeFiles(t testing.TB) []string {
	roots := filepath.SplitList(os.Getenv("PALLAS_REALTREE"))
	if len(roots) == 0 {
		t.Skip("PALLAS_REALTREE names no tree")
	}
	var out []string
	for _, root := range roots {
		out = append(out, pythonFiles(t, root)...)
	}
	return out
}

func pythonFiles(t testing.TB, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.Type().IsRegular() && strings.HasSuffix(p, ".py"):
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	if len(line) > 80 {
		line = line[:80]
	}
	return string(line)
}
