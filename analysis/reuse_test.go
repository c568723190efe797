package analysis_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestReuseMatchesFreshCheck edits every file of every fixture in turn, in
// one long-lived Engine as the editor does, and requires each result to
// equal a fresh check of the same text in every detail (findings, fixes,
// paths, notes, hovers). Edits that keep the IR's shape must take the fast
// path of reuse.go; the others must not.
func TestReuseMatchesFreshCheck(t *testing.T) {
	cases, _ := filepath.Glob("rules/testdata/PAL*/*")
	cases = append(cases, "../examples")
	opts := analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true}
	ctx := context.Background()
	fast, trivia := 0, 0
	slow, fastBy := map[string]int{}, map[string]int{}
	for _, dir := range cases {
		files := loadDir(t, dir)
		if len(files) == 0 {
			continue
		}
		e := analysis.NewEngine()
		if _, err := e.Check(ctx, files, opts); err != nil {
			t.Fatal(err)
		}
		for i := range files {
			orig := files[i].Src
			for _, ed := range reuseEdits {
				src, ok := ed.apply(orig)
				if !ok {
					continue
				}
				for _, step := range [][]byte{src, orig} {
					files[i].Src = step
					before := e.Reused()
					name := dir + "/" + filepath.Base(files[i].Path) + " " + ed.name
					warmEqualsFresh(t, e, files, opts, name)
					took := e.Reused() > before
					if ed.keepsShape && !took {
						t.Errorf("%s: a shape-keeping edit did not take the fast path", name)
					}
					fast += e.Reused() - before
					if took {
						fastBy[ed.name]++
					}
					if !took {
						slow[ed.name]++
					}
				}
			}
			files[i].Src = orig
		}
		trivia += e.Trivia()
	}
	if fast == 0 {
		t.Error("the fast path was never taken")
	}
	// A docstring's text and an operand of arithmetic are evaluated and
	// discarded: typing in them keeps the fast path.
	for _, name := range []string{"docstring typed in", "arithmetic constant changed"} {
		if fastBy[name] == 0 {
			t.Errorf("%q never took the fast path", name)
		}
	}
	// Constants are part of the IR: flipping one must re-run the analysis.
	if slow["True made False"] == 0 || slow["a call renamed"] == 0 {
		t.Errorf("edits that change the IR never took the slow path: %v", slow)
	}
	if trivia == 0 {
		t.Error("no edit took the trivia path of trivia.go")
	}
	t.Logf("fast path taken %d times (%d files moved by trivia.go); slow path per edit: %v", fast, trivia, slow)
}

type reuseEdit struct {
	name       string
	keepsShape bool // sure to keep the IR's shape
	apply      func([]byte) ([]byte, bool)
}

var reuseEdits = []reuseEdit{
	{"comment at the top", true, func(b []byte) ([]byte, bool) {
		return append([]byte("# an edit\n"), b...), true
	}},
	{"blank line at the end", true, func(b []byte) ([]byte, bool) {
		return append(append([]byte{}, b...), "\n\n"...), true
	}},
	{"a trailing comment on every line", false, func(b []byte) ([]byte, bool) {
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if strings.TrimSpace(l) != "" && !strings.HasSuffix(l, "\\") {
				lines[i] = l + "  # note"
			}
		}
		return []byte(strings.Join(lines, "\n")), true
	}},
	{"indentation doubled", false, func(b []byte) ([]byte, bool) {
		return bytes.ReplaceAll(b, []byte("\n    "), []byte("\n        ")), true
	}},
	{"True made False", false, func(b []byte) ([]byte, bool) {
		i := bytes.Index(b, []byte("True"))
		if i < 0 {
			return nil, false
		}
		return append(append(append([]byte{}, b[:i]...), "False"...), b[i+4:]...), true
	}},
	{"imports dropped", false, func(b []byte) ([]byte, bool) {
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "from ") && !strings.HasSuffix(l, "(") {
				lines[i] = "pass"
			}
		}
		return []byte(strings.Join(lines, "\n")), true
	}},
	{"docstring typed in", false, func(b []byte) ([]byte, bool) {
		i := bytes.Index(b, []byte(`"""`))
		if i < 0 {
			return nil, false
		}
		return append(append(append([]byte{}, b[:i+3]...), "Typed. "...), b[i+3:]...), true
	}},
	{"arithmetic constant changed", false, func(b []byte) ([]byte, bool) {
		i := bytes.Index(b, []byte(" * 2"))
		if i < 0 {
			return nil, false
		}
		return append(append(append([]byte{}, b[:i]...), " * 3"...), b[i+4:]...), true
	}},
	{"a call renamed", false, func(b []byte) ([]byte, bool) {
		i := bytes.Index(b, []byte("("))
		if i < 1 {
			return nil, false
		}
		return append(append(append([]byte{}, b[:i]...), "_x"...), b[i:]...), true
	}},
}

// TestReuseRandomEdits types random snippets (comments, blank lines,
// code, half-typed code, suppressions) into the example project, one
// Engine throughout, comparing every result with a fresh check.
func TestReuseRandomEdits(t *testing.T) {
	files := loadDir(t, "../examples")
	opts := analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true}
	e := analysis.NewEngine()
	snippets := []string{"# note\n", "\n", "\"\"\"Docs.\"\"\"\n", "x * 2\n", "Doc", "  # trailing", "    \n", "x = 1\n", "(", ")", "def f(:\n",
		"  # pallas-ls: ignore[PAL101]", "# noqa: PAL103\n", "\"\"\"doc\"\"\"\n", "True", "#", "\\\n"}
	rng := rand.New(rand.NewSource(7))
	steps := 400
	if testing.Short() {
		steps = 100
	}
	before, trivia := e.Reused(), e.Trivia()
	for i := 0; i < steps; i++ {
		f := &files[rng.Intn(len(files))]
		src := f.Src
		at := 0
		if len(src) > 0 {
			at = rng.Intn(len(src) + 1)
		}
		// Prefer line starts, where most snippets keep the code valid.
		if j := bytes.LastIndexByte(src[:at], '\n'); rng.Intn(2) == 0 {
			at = j + 1
		}
		next := append([]byte{}, src[:at]...)
		if rng.Intn(4) == 0 && at < len(src) {
			end := min(len(src), at+1+rng.Intn(20))
			next = append(next, src[end:]...) // a deletion
		} else {
			next = append(append(next, snippets[rng.Intn(len(snippets))]...), src[at:]...)
		}
		f.Src = next
		if !warmEqualsFresh(t, e, files, opts, fmt.Sprintf("step %d (%s)", i, filepath.Base(f.Path))) {
			break
		}
	}
	if e.Reused() == before {
		t.Error("no random edit took the fast path")
	}
	if e.Trivia() == trivia {
		t.Error("no random edit took the trivia path")
	}
	t.Logf("%d of %d edits took the fast path, %d the trivia path", e.Reused()-before, steps, e.Trivia()-trivia)
}

// warmEqualsFresh checks files with the long-lived engine e and with a
// fresh one, and reports whether the results are equal in every detail.
func warmEqualsFresh(t *testing.T, e *analysis.Engine, files []analysis.SourceFile, opts analysis.Options, name string) bool {
	t.Helper()
	ctx := context.Background()
	got, err := e.Check(ctx, files, opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := analysis.Check(ctx, files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the warm engine's result differs from a fresh check:\nwarm:  %v\nfresh: %v", name, render(got.Diagnostics), render(want.Diagnostics))
		return false
	}
	return true
}

// FuzzReuse: after any edit (text inserted at any position, a range
// deleted), a warm engine's result equals a fresh check's.
func FuzzReuse(f *testing.F) {
	for _, p := range []string{"../examples/ring.py", "../examples/train.py", "rules/testdata/PAL101/direct_top_level/ring.py"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint16(0), []byte("# c\n"), uint8(0))
			f.Add(b, uint16(len(b)/2), []byte("\n"), uint8(3))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, at uint16, ins []byte, del uint8) {
		opts := analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true}
		files := []analysis.SourceFile{{Path: "/fuzz/main.py", Src: src}}
		e := analysis.NewEngine()
		if _, err := e.Check(context.Background(), files, opts); err != nil {
			t.Fatal(err)
		}
		i := min(int(at), len(src))
		j := min(i+int(del), len(src))
		files[0].Src = append(append(append([]byte{}, src[:i]...), ins...), src[j:]...)
		warmEqualsFresh(t, e, files, opts, "after the edit")
	})
}
