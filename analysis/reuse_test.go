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
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	ctx := context.Background()
	fast, trivia, unrun := 0, 0, 0
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
		unrun += e.Unrun()
	}
	if fast == 0 {
		t.Error("the fast path was never taken")
	}
	// A docstring's text is evaluated and discarded: typing in it keeps
	// the fast path.
	if fastBy["docstring typed in"] == 0 {
		t.Errorf("%q never took the fast path", "docstring typed in")
	}
	// Constants are part of the IR: flipping one must re-run the analysis,
	// and so must an operand of arithmetic (folded into shapes and grids).
	if slow["True made False"] == 0 || slow["a call renamed"] == 0 || slow["arithmetic constant changed"] == 0 {
		t.Errorf("edits that change the IR never took the slow path: %v", slow)
	}
	if trivia == 0 {
		t.Error("no edit took the trivia path of ir/trivia.go")
	}
	if unrun == 0 {
		t.Error("no edit of a file the analysis never runs took the fast path")
	}
	t.Logf("fast path taken %d times (%d files moved by ir/trivia.go, %d never run); slow path per edit: %v", fast, trivia, unrun, slow)
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
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
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
		opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
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

// TestReuseNeverRunFiles: a file the analysis keeps for its per-file rules
// but never executes (nothing that reaches Pallas imports it) can change
// freely without re-running the analysis, until an edit makes it import
// Pallas or a module that does. Every result equals a fresh check, with
// and without pruning.
func TestReuseNeverRunFiles(t *testing.T) {
	root := t.TempDir()
	project := map[string]string{
		"app/__init__.py": "",
		"app/kernels.py": `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, s, r):
    pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={"x": jax.lax.axis_index("x")}).start()


def run(x):
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)
`,
		"main.py": "from app.kernels import run\n\nrun(1)\n",
		// Mentions JAX (kept for PAL3xx) but reaches no kernel: never run.
		"models/layer.py": `import jax
from jax.experimental.shard_map import shard_map


def layer(x):
    return jax.numpy.tanh(x) * 2


y = layer(1)
`,
		"tools/cli.py": "def shout(s):\n    return s.upper()\n\nprint(shout('x'))\n",
	}
	var files []analysis.SourceFile
	for _, name := range []string{"app/__init__.py", "app/kernels.py", "main.py", "models/layer.py", "tools/cli.py"} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(project[name]), 0o644)
		files = append(files, analysis.SourceFile{Path: p, Src: []byte(project[name])})
	}
	layer, cli := &files[3], &files[4]
	for _, noPrune := range []bool{false, true} {
		opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true, NoPrune: noPrune})
		e := analysis.NewEngine()
		if _, err := e.Check(context.Background(), files, opts); err != nil {
			t.Fatal(err)
		}
		orig := layer.Src
		steps := []struct {
			name string
			f    *analysis.SourceFile
			src  string
			fast bool // must take the never-run path
		}{
			{"code changed", layer, strings.Replace(string(orig), "* 2", "* y + f(3)", 1), true},
			{"a syntax error", layer, string(orig) + "\ndef broken(:\n", true},
			{"a new deprecated import", layer, "from jax.experimental.shard_map import shard_map as sm\n" + string(orig), true},
			{"now imports the kernels", layer, "from app.kernels import run\n" + string(orig) + "run(y)\n", false},
			{"code changed while it runs", layer, "from app.kernels import run\n" + string(orig) + "run(y + 1)\n", false},
			{"back to the original", layer, string(orig), false},
			{"code changed again", layer, strings.Replace(string(orig), "tanh", "sinh", 1), true},
			{"imports Pallas itself", layer, "from jax.experimental import pallas as pl\n" + string(orig), false},
			{"back again", layer, string(orig), false},
		}
		if noPrune { // a file pruning would drop: only NoPrune parses it
			steps = append(steps, struct {
				name string
				f    *analysis.SourceFile
				src  string
				fast bool
			}{"a plain file changed", cli, strings.Replace(project["tools/cli.py"], "upper", "lower", 1), true})
		}
		for _, st := range steps {
			st.f.Src = []byte(st.src)
			before := e.Unrun()
			name := fmt.Sprintf("NoPrune=%v: %s", noPrune, st.name)
			warmEqualsFresh(t, e, files, opts, name)
			if took := e.Unrun() > before; took != st.fast {
				t.Errorf("%s: took the never-run path: %v, want %v", name, took, st.fast)
			}
		}
		// Random typing into the never-run file, some of it making the
		// file reach the kernels and back.
		snippets := []string{"from app.kernels import run\n", "run(1)\n", "from jax.experimental import pallas as pl\n",
			"def f(:\n", "x = 1\n", "# c\n", "(", "shard_map(layer, mesh, P(), P(), check_rep=False)\n", "\"\"\"doc\"\"\"\n", "    "}
		rng := rand.New(rand.NewSource(3))
		before, reused := e.Unrun(), e.Reused()
		for i := 0; i < 120; i++ {
			src := layer.Src
			if i%6 == 0 {
				src = orig // runs of a few edits each
			}
			at := bytes.LastIndexByte(src[:rng.Intn(len(src)+1)], '\n') + 1
			next := append([]byte{}, src[:at]...)
			if rng.Intn(3) == 0 && at < len(src) {
				next = append(next, src[min(len(src), at+1+rng.Intn(30)):]...)
			} else {
				next = append(append(next, snippets[rng.Intn(len(snippets))]...), src[at:]...)
			}
			layer.Src = next
			if !warmEqualsFresh(t, e, files, opts, fmt.Sprintf("NoPrune=%v: random step %d", noPrune, i)) {
				break
			}
		}
		if e.Unrun() == before {
			t.Errorf("NoPrune=%v: no random edit took the never-run path", noPrune)
		}
		t.Logf("NoPrune=%v: of 120 random edits, %d took the never-run path, %d the fast path in all", noPrune, e.Unrun()-before, e.Reused()-reused)
		layer.Src, cli.Src = orig, []byte(project["tools/cli.py"])
	}
}

// firstBodyLines returns the offsets and indentation of the first line of
// every def body written on lines of its own.
func firstBodyLines(src []byte) (at []int, indent [][]byte) {
	lines := bytes.SplitAfter(src, []byte("\n"))
	off, inDef := 0, false
	for _, l := range lines {
		trim := bytes.TrimLeft(l, " \t")
		if inDef && len(bytes.TrimSpace(l)) > 0 {
			at, indent = append(at, off), append(indent, l[:len(l)-len(trim)])
			inDef = false
		}
		if (bytes.HasPrefix(trim, []byte("def ")) || bytes.HasPrefix(trim, []byte("async def ")) ||
			bytes.HasPrefix(l, []byte("if __name__ == ")) && bytes.Contains(l, []byte("__main__"))) &&
			bytes.HasSuffix(bytes.TrimSpace(l), []byte(":")) {
			inDef = true
		}
		off += len(l)
	}
	return at, indent
}

// TestReuseDeadBodies types a statement at the top of every function body
// of every fixture, one engine per project: a body the last run never
// executed takes the fast path (ir/deadbody.go), any other re-runs the
// analysis, and every result equals a fresh check.
func TestReuseDeadBodies(t *testing.T) {
	edits, dead, _ := editEveryBody(t, []string{"dead"}, []string{"extra_ = helper(1)\n", "return pl.pallas_call(kern, out_shape=x)(x)\n"})
	if dead == 0 {
		t.Error("no edit of a body the analysis never ran took the fast path")
	}
	t.Logf("%d of %d body edits took the dead-body path", dead, edits)
}

// deadProject: kernels that use a helper module, most of whose functions
// no entry calls (the fixtures use Pallas everywhere, so every function of
// theirs runs, at least as a library entry).
func deadProject(t *testing.T) []analysis.SourceFile {
	project := [][2]string{
		{"app/__init__.py", ""},
		{"app/util.py", `import jax

AXIS = "x"


def axis():
    return AXIS


def unused(x):
    y = x + 1
    return y


def factory():
    def inner(z):
        return z

    return inner


class Helper:
    def method(self):
        return jax.lax.axis_index(AXIS)

    def other(self, mesh):
        return mesh
`},
		{"app/kernels.py", `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from app import util


def kernel(x_ref, o_ref, s, r):
    pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={util.axis(): 0}).start()


def run(x):
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)
`},
		{"main.py", "from app.kernels import run\nfrom app.util import factory\n\nrun(1)\nf = factory\n"},
	}
	return writeProject(t, project)
}

// TestReuseDeadBodiesRandom types random lines into the helper module of
// deadProject, in runs of a few edits from its original text: inside
// bodies no entry runs, inside ones it runs, at module level (where a call
// can make a dead function live). Every result equals a fresh check.
func TestReuseDeadBodiesRandom(t *testing.T) {
	files := deadProject(t)
	util := &files[1]
	orig := util.Src
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	snippets := []string{"        x = 1\n", "    x = 1\n", "        return jax.lax.axis_index('y')\n", "    y = unused(2)\n",
		"unused(1)\n", "Helper().method()\n", "def extra():\n    return 1\n", "        # c\n", "        (\n", "    \n",
		"    return factory()(1)\n", "    import os\n"}
	rng := rand.New(rand.NewSource(5))
	steps := 300
	if testing.Short() {
		steps = 80
	}
	before := e.DeadBodies()
	for i := 0; i < steps; i++ {
		src := util.Src
		if i%5 == 0 {
			src = orig
		}
		next := insertLine(rng, src, snippets)
		util.Src = next
		if !warmEqualsFresh(t, e, files, opts, fmt.Sprintf("step %d", i)) {
			t.Logf("text:\n%s", next)
			break
		}
	}
	if e.DeadBodies() == before {
		t.Error("no random edit took the dead-body path")
	}
	t.Logf("%d of %d random edits took the dead-body path", e.DeadBodies()-before, steps)
}

// insertLine inserts one of snippets before a random line of src (k may
// also fall past the last line: then src is unchanged).
func insertLine(rng *rand.Rand, src []byte, snippets []string) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	k := rng.Intn(len(lines) + 1)
	var next []byte
	for j, l := range lines {
		if j == k {
			next = append(next, snippets[rng.Intn(len(snippets))]...)
		}
		next = append(next, l...)
	}
	return next
}
