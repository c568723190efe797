package analysis

import (
	"bytes"
	"maps"
	"math/rand"
	"reflect"
	"slices"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// bodyEdits returns, for a def whose body starts on a line of its own,
// versions of src with that body changed: a statement inserted before its
// first one, and its first line deleted when it has more than one.
func bodyEdits(src []byte, d *ir.FuncDef) [][]byte {
	if d.Lambda || len(d.Body) == 0 {
		return nil
	}
	first := d.Body[0].Span.Start
	line := bytes.LastIndexByte(src[:first], '\n') + 1
	if line <= d.Span.Start {
		return nil // `def f(): return 1`
	}
	indent := src[line:first]
	if len(bytes.TrimLeft(indent, " \t")) != 0 {
		return nil
	}
	ins := append(append(append([]byte{}, src[:line]...), indent...), "extra_ = helper(1) + other.attr\n"...)
	out := [][]byte{append(ins, src[line:]...)}
	if len(d.Body) > 1 {
		next := bytes.LastIndexByte(src[:d.Body[1].Span.Start], '\n') + 1
		if next > line && bytes.Count(src[line:next], []byte("\n")) == 1 && d.Body[0].Span.End <= next {
			out = append(out, append(append([]byte{}, src[:line]...), src[next:]...))
		}
	}
	return out
}

// TestDeadBodyMatchesFreshSummary: after an edit inside the body of a
// function the run never executed, the old summary merged onto the new
// text (CompareDead, MergeDead) equals a fresh summary of the new text in
// every field, and an edit outside such bodies is refused.
func TestDeadBodyMatchesFreshSummary(t *testing.T) {
	srcs := triviaSources(t)
	paths := slices.Sorted(maps.Keys(srcs))
	merged, refused := 0, 0
	for _, path := range paths {
		src := srcs[path]
		for _, d := range ir.Summarize(path, src).Defs {
			for _, next := range bodyEdits(src, d) {
				a, b := ir.Summarize(path, src), ir.Summarize(path, next)
				isDead := func(x *ir.FuncDef) bool { return x.Qual == d.Qual && x.Span.Start == d.Span.Start }
				w, ok := ir.CompareDead(a, b, isDead)
				if !ok {
					if a.ParseError == "" && b.ParseError == "" && a.UsesPallas == b.UsesPallas && a.NamesSPMD == b.NamesSPMD {
						t.Errorf("%s: an edit inside %s was refused", path, d.Qual)
					}
					continue
				}
				ir.MergeDead(a, b, w)
				if fresh := ir.Summarize(path, next); !reflect.DeepEqual(a, fresh) {
					t.Errorf("%s: after an edit inside %s the merged summary differs from a fresh one", path, d.Qual)
				}
				merged++
				// The same edit with no dead function: refused.
				if _, ok := ir.CompareDead(ir.Summarize(path, src), ir.Summarize(path, next), func(*ir.FuncDef) bool { return false }); ok {
					t.Errorf("%s: an edit inside %s was taken with no dead body", path, d.Qual)
				}
				refused++
			}
		}
	}
	if merged < 100 {
		t.Errorf("only %d edits merged", merged)
	}
	t.Logf("%d edits merged, %d refused without a dead body", merged, refused)
}

// TestDeadBodyRandomEdits: every function dead, random lines inserted and
// deleted anywhere; whenever CompareDead accepts, the merge equals a fresh
// summary.
func TestDeadBodyRandomEdits(t *testing.T) {
	srcs := triviaSources(t)
	paths := slices.Sorted(maps.Keys(srcs))
	rng := rand.New(rand.NewSource(11))
	snippets := []string{"x = 1\n", "        return y\n", "    pass\n", "def g(:\n", "    # c\n", "\n", "    lambda q: q\n",
		"    def inner():\n        return pl.pallas_call(k)\n", "    import os\n", "class K:\n    pass\n"}
	accepted := 0
	for i := 0; i < 3000; i++ {
		path := paths[rng.Intn(len(paths))]
		src := srcs[path]
		lines := bytes.SplitAfter(src, []byte("\n"))
		k := rng.Intn(len(lines) + 1)
		var next []byte
		for j, l := range lines {
			if j == k {
				if rng.Intn(3) == 0 {
					continue // deleted
				}
				next = append(next, snippets[rng.Intn(len(snippets))]...)
			}
			next = append(next, l...)
		}
		a, b := ir.Summarize(path, src), ir.Summarize(path, next)
		w, ok := ir.CompareDead(a, b, func(*ir.FuncDef) bool { return true })
		if !ok {
			continue
		}
		ir.MergeDead(a, b, w)
		if fresh := ir.Summarize(path, next); !reflect.DeepEqual(a, fresh) {
			t.Fatalf("%s: edit at line %d: the merged summary differs from a fresh one:\n%s", path, k+1, next)
		}
		accepted++
	}
	if accepted < 300 {
		t.Errorf("only %d random edits accepted", accepted)
	}
	t.Logf("%d of 3000 random edits merged", accepted)
}
