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
		if gap := gapLeft(tr); gap != "" {
			t.Errorf("%s: %s", p, gap)
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

// gapLeft describes a gap's shape left in a repaired tree: a star bound to
// its first name only (`*a.b` read as (*a).b), `except *E` as an except
// clause over list_splat, `{x:=8}` as an assignment expression; or "".
func gapLeft(t *Tree) string {
	g := gaps()
	for i := range t.Nodes {
		n := &t.Nodes[i]
		p := n.Parent
		switch {
		case p < 0:
		case n.Kind == KindListSplat && p+1 == NodeID(i) && g.operand[t.Kind(p)] && holdsStar(t, g, misboundTop(t, g, p)):
			return "star bound to its first name: " + t.Text(p)
		case n.Kind == KindListSplat && t.Kind(p) == g.exceptClause:
			return "except * read as except: " + t.Text(p)
		case n.Kind == KindNamedExpression && (t.Kind(p) == g.interpolation || t.Kind(p) == g.formatExpr):
			return "format spec read as :=: " + t.Text(p)
		}
	}
	return ""
}

// misboundTop climbs the operand chain from p, whose first child is a
// list_splat.
func misboundTop(t *Tree, g *gapKinds, p NodeID) NodeID {
	for q := t.Nodes[p].Parent; q >= 0 && q+1 == p && g.operand[t.Kind(q)]; q = t.Nodes[p].Parent {
		p = q
	}
	return p
}
