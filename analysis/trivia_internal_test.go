package analysis

import (
	"bytes"
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// triviaSources are the fixture and example files, the inputs of the
// trivia tests.
func triviaSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, root := range []string{"rules/testdata", "testdata", "../examples"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
				src, rerr := os.ReadFile(p)
				if rerr != nil {
					t.Fatal(rerr)
				}
				out[p] = src
			}
			return nil
		})
	}
	// Constructs the fixtures may lack: a match statement's subject, read
	// by every case, is the one place a node could be shared.
	out["inline/shapes.py"] = []byte(`import jax  # the framework
from jax.experimental import pallas as pl


@jax.jit  # compiled
def f(x, y=lambda z: z + 1, *a, **k):
    match x:  # dispatch
        case 1:
            return g(x)
        case [a, b]:
            return (a,  # first
                    b)
        case _:
            pass
    with open("p") as h, lock:
        return [i for i in range(3) if i]


class C(Base, metaclass=M):
    """Doc."""

    def m(self):
        x, y = 1, 2
        x += y
        return pl.pallas_call(k, grid=(1,))(x)
`)
	if len(out) < 20 {
		t.Fatalf("only %d sources found", len(out))
	}
	return out
}

// TestIRIsATree: every IR node is reachable once from a summary's Body,
// which ShiftTo needs to move each position exactly once.
func TestIRIsATree(t *testing.T) {
	for path, src := range triviaSources(t) {
		s := ir.Summarize(path, src)
		seen := map[any]bool{}
		var dup []string
		visit := func(p any, what string) {
			if seen[p] {
				dup = append(dup, what)
			}
			seen[p] = true
		}
		var stmts func([]*ir.Stmt)
		var expr func(*ir.Expr)
		var def func(*ir.FuncDef)
		expr = func(e *ir.Expr) {
			if e == nil {
				return
			}
			visit(e, "expr "+s.Text(e.Span))
			expr(e.X)
			for _, a := range e.Args {
				expr(a)
			}
			for _, k := range e.Kw() {
				expr(k.Key)
				expr(k.Value)
			}
			def(e.Lambda())
		}
		def = func(d *ir.FuncDef) {
			if d == nil {
				return
			}
			visit(d, "def "+d.Name)
			for _, p := range d.Params {
				expr(p.Default)
				expr(p.Annotation)
			}
			for _, x := range d.Decorators {
				expr(x)
			}
			stmts(d.Body)
		}
		stmts = func(list []*ir.Stmt) {
			for _, st := range list {
				visit(st, "statement "+s.Text(st.Span))
				for _, x := range append([]*ir.Expr{st.Value, st.Cond}, st.Targets...) {
					expr(x)
				}
				for _, it := range st.Items {
					expr(it.Ctx)
					expr(it.Target)
				}
				stmts(st.Body)
				stmts(st.Else)
				stmts(st.Finally)
				def(st.Def)
				if c := st.Class; c != nil {
					visit(c, "class "+c.Name)
					for _, x := range append(append([]*ir.Expr{}, c.Bases...), c.Decorators...) {
						expr(x)
					}
					stmts(c.Body)
				}
				if st.Import != nil {
					visit(st.Import, "import")
				}
			}
		}
		stmts(s.Body)
		if len(dup) > 0 {
			t.Errorf("%s: IR nodes reachable twice: %q", path, dup)
		}
	}
}

// triviaEdits change only comments and spacing, in ways an editor does.
var triviaEdits = []struct {
	name string
	edit func(src []byte, rng *rand.Rand) []byte
}{
	{"comment line inserted", func(src []byte, rng *rand.Rand) []byte {
		at := lineStart(src, rng)
		return splice(src, at, at, "# a note\n")
	}},
	{"blank line inserted", func(src []byte, rng *rand.Rand) []byte {
		at := lineStart(src, rng)
		return splice(src, at, at, "\n")
	}},
	{"trailing comment", func(src []byte, rng *rand.Rand) []byte {
		at := lineStart(src, rng)
		end := at + bytes.IndexByte(append(src[at:], '\n'), '\n')
		return splice(src, end, end, "  # pallas-ls: ignore[PAL101]")
	}},
	{"comment retyped", func(src []byte, rng *rand.Rand) []byte {
		i := bytes.Index(src, []byte("# "))
		if i < 0 {
			return nil
		}
		return splice(src, i+2, i+2, "x")
	}},
	{"comment line deleted", func(src []byte, rng *rand.Rand) []byte {
		lines := bytes.SplitAfter(src, []byte("\n"))
		off := 0
		for _, l := range lines {
			if bytes.HasPrefix(bytes.TrimLeft(l, " "), []byte("#")) {
				return splice(src, off, off+len(l), "")
			}
			off += len(l)
		}
		return nil
	}},
	{"space after a comma", func(src []byte, rng *rand.Rand) []byte {
		i := bytes.Index(src, []byte(", "))
		if i < 0 {
			return nil
		}
		return splice(src, i+1, i+1, " ")
	}},
	{"random character", func(src []byte, rng *rand.Rand) []byte {
		at := rng.Intn(len(src) + 1)
		return splice(src, at, at, string(" #\nx'(\t"[rng.Intn(7)]))
	}},
	{"random snippet or deletion", func(src []byte, rng *rand.Rand) []byte {
		at := rng.Intn(len(src) + 1)
		if rng.Intn(3) == 0 {
			return splice(src, at, min(len(src), at+1+rng.Intn(12)), "")
		}
		snippets := []string{"# c\n", "  # t", "\\\n", " ", "\n", "\t", "#", `\n`, `"`, `'''`, " not ", "\r\n", "\f"}
		return splice(src, at, at, snippets[rng.Intn(len(snippets))])
	}},
}

func lineStart(src []byte, rng *rand.Rand) int {
	at := rng.Intn(len(src) + 1)
	return bytes.LastIndexByte(src[:at], '\n') + 1
}

func splice(src []byte, from, to int, text string) []byte {
	return append(append(append([]byte{}, src[:from]...), text...), src[to:]...)
}

// editLive summarises src as the editor does (a live tree kept), then its
// edited version next: prev is the first summary, got the second, and
// shifted tells whether got is prev moved in place (the trivia path).
func editLive(path string, src, next []byte) (prev, got *ir.Summary, shifted bool, err error) {
	_, live, err := pp.ParseLive(nil, src)
	if err != nil {
		return nil, nil, false, err
	}
	prev = ir.SummarizeTree(path, live.Flat())
	got, lt, shifted := summarizeLive(SourceFile{Path: path, Src: next}, live, prev)
	lt.Close()
	return prev, got, shifted, nil
}

// TestTriviaMatchesFreshSummary: whenever summarizeLive moves the previous
// summary onto an edited file, the result equals a fresh Summarize of the
// new text in every field.
func TestTriviaMatchesFreshSummary(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	taken := map[string]int{}
	for path, src := range triviaSources(t) {
		for _, ed := range triviaEdits {
			for k := 0; k < 6; k++ {
				next := ed.edit(src, rng)
				if next == nil {
					continue
				}
				prev, got, shifted, err := editLive(path, src, next)
				if err != nil {
					t.Fatal(err)
				}
				if !shifted {
					continue
				}
				taken[ed.name]++
				want := ir.Summarize(path, next)
				if got != prev {
					t.Fatalf("%s, %s: shifted, but not in place", path, ed.name)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %s: the moved summary differs from a fresh one", path, ed.name)
				}
			}
		}
	}
	for _, ed := range triviaEdits[:6] {
		if taken[ed.name] == 0 {
			t.Errorf("%q never took the trivia path", ed.name)
		}
	}
	t.Logf("trivia path taken: %v", taken)
}

// TestTriviaRejectsMockComments: a comment that makes a test look like it
// mocks shard_map changes the IR, so it cannot take the trivia path.
func TestTriviaRejectsMockComments(t *testing.T) {
	src := []byte("def test_a():\n    run()\n")
	next := []byte("def test_a():\n    # mock.patch('jax.shard_map')\n    run()\n")
	prev, got, shifted, err := editLive("t.py", src, next)
	if err != nil {
		t.Fatal(err)
	}
	if shifted || !got.Defs[0].MocksSPMD || prev.Defs[0].MocksSPMD {
		t.Fatalf("shifted=%v, mocks after %v, before %v", shifted, got.Defs[0].MocksSPMD, prev.Defs[0].MocksSPMD)
	}
}

// FuzzTrivia: any edit that takes the trivia path yields a fresh
// Summarize's summary.
func FuzzTrivia(f *testing.F) {
	f.Add([]byte("def f(x):\n    return g(x)  # c\n"), uint16(0), "# a\n")
	f.Add([]byte("match x:\n    case 1:\n        pass\n    case 2:\n        pass\n"), uint16(9), "  ")
	f.Add([]byte("x = (1,\n     2)\n"), uint16(6), " # c")
	f.Add([]byte("from a.\\\nb import c\n"), uint16(9), "# c\n")
	f.Add([]byte(`s = 'a\nb c'`+"\n"), uint16(9), " ")
	f.Add([]byte("x = a is not b\n"), uint16(8), "  ")
	f.Add([]byte("def f(*args, a=1, /, b): pass\n"), uint16(7), " ")
	f.Fuzz(func(t *testing.T, src []byte, at uint16, text string) {
		pos := int(at) % (len(src) + 1)
		next := splice(src, pos, pos, text)
		_, got, shifted, err := editLive("f.py", src, next)
		if err != nil {
			return
		}
		if shifted && !reflect.DeepEqual(got, ir.Summarize("f.py", next)) {
			t.Fatalf("inserting %q at %d into %q: the moved summary differs from a fresh one", text, pos, src)
		}
	})
}

// TestTriviaSurvivesACancelledCheck: a check cancelled after summarising
// has already moved the edited summaries in place; the next check must
// still treat them as moved (re-render their facts), not as unchanged.
func TestTriviaSurvivesACancelledCheck(t *testing.T) {
	var files []SourceFile
	for path, src := range triviaSources(t) {
		if strings.HasPrefix(path, "../examples") {
			files = append(files, SourceFile{Path: path, Src: src})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	opts := Options{JAXVersion: lowering.Latest, ShowInfo: true, Analyzers: testAnalyzers}
	ctx := context.Background()
	for i := range files {
		e := NewEngine()
		orig := files[i].Src
		for _, src := range [][]byte{orig, append([]byte("# a\n"), orig...)} {
			files[i].Src = src
			if _, err := e.Check(ctx, files, opts); err != nil {
				t.Fatal(err)
			}
		}
		// The next version is summarised, as a check does before it is
		// cancelled, and then checked.
		files[i].Src = append([]byte("# a\n# b\n"), orig...)
		before := e.trivia
		e.summarize(ctx, files)
		if e.trivia == before {
			t.Fatalf("%s: the edit did not take the trivia path", files[i].Path)
		}
		got, err := e.Check(ctx, files, opts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Check(ctx, files, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: after a cancelled check, the result differs from a fresh one", files[i].Path)
		}
		files[i].Src = orig
	}
}
