package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// TestExpressionEnds: ` + 0` goes at the end of the value of one-line
// assignments and expression statements, before a trailing comment, and
// nowhere else.
func TestExpressionEnds(t *testing.T) {
	src := strings.Join([]string{
		`"""Module docstring."""`,          // 0 no: a docstring
		`import jax`,                       // 1 no: not an expression
		`x = jnp.dot(a, b)  # the product`, // 2 yes, before the comment
		`a = b = c`,                        // 3 yes, after c
		`y: int`,                           // 4 no: no value
		`z: int = 3`,                       // 5 yes
		`def f(o_ref, acc):`,               // 6 no
		`    o_ref[...] += acc`,            // 7 yes
		`    pl.store(o_ref, acc)`,         // 8 yes
		`    v = (1,`,                      // 9 no: spans lines
		`         2)`,                      // 10 no
		`    p = 1; q = 2`,                 // 11 no: two statements
		`    return lambda: 1`,             // 12 no: a return
		`    w = yield`,                    // 13 yes
		`    print(x),`,                    // 14 yes, before the comma
		`    s = "é" + x`,                  // 15 yes, after x (bytes, not runes)
		``,
	}, "\n")
	got := expressionEnds([]byte(src))
	want := map[int]string{2: "x = jnp.dot(a, b)", 3: "a = b = c", 5: "z: int = 3", 7: "    o_ref[...] += acc",
		8: "    pl.store(o_ref, acc)", 13: "    w = yield", 14: "    print(x)", 15: `    s = "é" + x`}
	lines := strings.Split(src, "\n")
	for line, col := range got {
		if w, ok := want[line]; !ok || lines[line][:col] != w {
			t.Errorf("line %d: edit point after %q, want %q (ok %v)", line, lines[line][:col], w, ok)
		}
	}
	for line := range want {
		if _, ok := got[line]; !ok {
			t.Errorf("line %d (%q): no edit point", line, lines[line])
		}
	}
	if len(expressionEnds([]byte("x = (\n"))) != 0 {
		t.Error("a file with syntax errors has edit points")
	}
	e := treeEdit{src: []byte(src), line: 15, col: got[15]}
	if c := e.col16(); c != got[15]-1 {
		t.Errorf("UTF-16 column %d, want %d (é is 2 bytes, 1 unit)", c, got[15]-1)
	}
}

// TestTreeEditsParse: every edit chosen on the examples and on a generated
// corpus leaves its file parsing cleanly, changes only its line by the
// suffix, and the same seed chooses the same edits.
func TestTreeEditsParse(t *testing.T) {
	py, err := readTree(context.Background(), mustAbs(t, "../../examples"))
	if err != nil || len(py) == 0 {
		t.Fatalf("reading the examples: %d files, %v", len(py), err)
	}
	corpus := func() []File { return Generate(Config{Lines: 10000, Seed: 3}).Python() }
	for _, c := range []struct {
		name  string
		files func() []File
	}{{"examples", func() []File { return py }}, {"corpus", corpus}} {
		name := c.name
		edits := pickTreeEdits(c.files(), 200, 7)
		if len(edits) != 200 {
			t.Fatalf("%s: %d edits, want 200", name, len(edits))
		}
		inFiles := map[string]bool{}
		for _, e := range edits {
			inFiles[e.path] = true
			out := e.apply()
			tr, err := pyparse.Parse(out)
			if err != nil || len(tr.SyntaxErrors()) > 0 {
				t.Errorf("%s: %s line %d: the edit does not parse: %v %v\n%s", name, e.path, e.line+1, err, tr.SyntaxErrors(),
					strings.Split(string(out), "\n")[e.line])
				continue
			}
			before, after := strings.Split(string(e.src), "\n"), strings.Split(string(out), "\n")
			if len(before) != len(after) {
				t.Errorf("%s: %s line %d: the edit moved lines", name, e.path, e.line+1)
				continue
			}
			l := before[e.line]
			if after[e.line] != l[:e.col]+" + 0"+l[e.col:] {
				t.Errorf("%s: %s line %d: %q became %q", name, e.path, e.line+1, l, after[e.line])
			}
		}
		if len(inFiles) < 3 {
			t.Errorf("%s: the edits fall in %d files only", name, len(inFiles))
		}
		again := pickTreeEdits(c.files(), 200, 7)
		for i := range again {
			if again[i].path != edits[i].path || again[i].line != edits[i].line {
				t.Fatalf("%s: the same seed chose %s:%d, then %s:%d", name, edits[i].path, edits[i].line, again[i].path, again[i].line)
			}
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
