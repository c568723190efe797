package pyparse

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// needs reads a corpus file's first line: "# Needs Python 3.11: ...".
var needs = regexp.MustCompile(`^# Needs Python (3\.\d+)`)

// TestSyntaxCorpus: the hand-written corpus of modern syntax
// (testdata/syntax, one file per construct family) parses without a
// syntax error into valid trees. When a CPython is at hand, it confirms
// that every file it is new enough for is valid Python, so the corpus
// cannot drift into code that only the grammar accepts.
func TestSyntaxCorpus(t *testing.T) {
	paths, err := filepath.Glob("testdata/syntax/*.py")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	minVersion := make([]string, len(paths))
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := bytes.Cut(src, []byte("\n"))
		m := needs.FindSubmatch(first)
		if m == nil {
			t.Fatalf("%s: the first line must say which Python it needs", p)
		}
		minVersion[i] = string(m[1])
		tr, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tr.SyntaxErrors() {
			line := 1 + bytes.Count(src[:e.Span.Start], []byte("\n"))
			t.Errorf("%s:%d: syntax error %q", p, line, src[e.Span.Start:e.Span.End])
		}
		if err := checkTree(tr); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if id := boundToName(tr); id != NoNode {
			t.Errorf("%s: %q stars only its first name", p, tr.Text(tr.N(id).Parent))
		}
	}
	python := cpython()
	if python == "" {
		t.Log("no python3: the corpus itself is not checked against CPython")
		return
	}
	version, ok := cpythonVerdicts(t, python, paths)
	for i, p := range paths {
		if versionAtLeast(version, minVersion[i]) && !ok[i] {
			t.Errorf("%s: CPython %s rejects it, though it needs only %s", p, version, minVersion[i])
		}
	}
}

// boundToName returns a list_splat that heads an operand (the star of
// `*a.b` bound to `a` only), or NoNode.
func boundToName(t *Tree) NodeID {
	g := gaps()
	for i := range t.Nodes {
		if p := t.Nodes[i].Parent; t.Nodes[i].Kind == KindListSplat && p+1 == NodeID(i) && g.operand[t.Kind(p)] {
			return NodeID(i)
		}
	}
	return NoNode
}
