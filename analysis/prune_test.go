package analysis_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestPruningKeepsResults: analysing only the files the pre-scan keeps
// gives the same findings as analysing everything, on every fixture and
// on a project mixing kernels with plain Python.
func TestPruningKeepsResults(t *testing.T) {
	cases, _ := filepath.Glob("rules/testdata/PAL*/*")
	cases = append(cases, "../examples")
	for _, dir := range cases {
		files := loadDir(t, dir)
		if len(files) == 0 {
			continue
		}
		compare(t, dir, files)
	}
	mixed := mixedProject(t)
	compare(t, "mixed", mixed)
	res, _ := analysis.Check(context.Background(), mixed, withRules(analysis.Options{JAXVersion: lowering.Latest}))
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "PAL101" || res.FilesChecked != len(mixed) {
		t.Errorf("mixed project: want one PAL101 over %d files, got %v (%d files)", len(mixed), render(res.Diagnostics), res.FilesChecked)
	}
}

func compare(t *testing.T, name string, files []analysis.SourceFile) {
	t.Helper()
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	pruned, err := analysis.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.NoPrune = true
	full, err := analysis.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(render(pruned.Diagnostics), render(full.Diagnostics)) {
		t.Errorf("%s: pruning changed the findings:\npruned: %v\nfull:   %v", name, render(pruned.Diagnostics), render(full.Diagnostics))
	}
	if !reflect.DeepEqual(render(pruned.Notes), render(full.Notes)) {
		t.Errorf("%s: pruning changed the notes:\npruned: %v\nfull:   %v", name, render(pruned.Notes), render(full.Notes))
	}
	// Every module an entry: the modules the pre-scan leaves out cannot
	// reach a kernel, so running them adds no finding.
	e := analysis.NewEngine()
	e.SetEveryEntry(true)
	all, err := e.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(render(pruned.Diagnostics), render(all.Diagnostics)) {
		t.Errorf("%s: the pre-scan's entries changed the findings:\nentries: %v\nall:     %v", name, render(pruned.Diagnostics), render(all.Diagnostics))
	}
}

func render(ds []analysis.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s %d", filepath.Base(d.File), d.Pos.Line, d.Pos.Column, d.Code, d.Message, len(d.Fixes)))
	}
	return out
}

func loadDir(t *testing.T, dir string) []analysis.SourceFile {
	abs, _ := filepath.Abs(dir)
	var files []analysis.SourceFile
	filepath.WalkDir(abs, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "fixed" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			src, _ := os.ReadFile(p)
			files = append(files, analysis.SourceFile{Path: p, Src: src})
		}
		return nil
	})
	return files
}

// mixedProject: kernels, a plain helper they import, a jax-free entry
// that imports them, and an unrelated island that is pruned.
func mixedProject(t *testing.T) []analysis.SourceFile {
	files := map[string]string{
		"app/__init__.py": "",
		"app/flags.py":    "RING = True\nAXIS = 'x'\n",
		"app/kernels.py": `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from .flags import AXIS, RING


def kernel(x_ref, o_ref, s, r):
    if RING:
        pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={AXIS: jax.lax.axis_index(AXIS)}).start()


def run(x):
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)
`,
		"main.py":           "from app.kernels import run\n\nrun(1)\n",
		"tools/__init__.py": "",
		"tools/strings.py":  "def shout(s):\n    return s.upper()\n",
		"tools/cli.py":      "from tools.strings import shout\n\nprint(shout('x'))\n",
		"tools/broken.py":   "def half(:\n    return 1\n", // a syntax error in a pruned file: no note
	}
	return writeProject(t, pairs(files))
}

// pairs lists files (path: text) in path order, for writeProject.
func pairs(files map[string]string) [][2]string {
	var out [][2]string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		out = append(out, [2]string{name, files[name]})
	}
	return out
}

// TestPruningInJAXsOwnRepository: in a workspace that holds the `jax`
// package itself, imports of `jax...` are modelled, not followed, so its
// modules are parsed only when they name Pallas or an API with a history.
func TestPruningInJAXsOwnRepository(t *testing.T) {
	files := map[string]string{
		"jax/__init__.py":                     "from jax._src.api import jit\n",
		"jax/_src/__init__.py":                "",
		"jax/_src/api.py":                     "def jit(f):\n    return f\n",
		"jax/_src/lax.py":                     "def ragged(x):\n    from jax._src.lax.pallas_lowerings.gpu import ragged_dot\n    return ragged_dot(x)\n",
		"jax/_src/pallas/__init__.py":         "",
		"jax/_src/pallas/pallas_call.py":      "def pallas_call(kernel, **kw):\n    return kernel\n",
		"jax/experimental/pallas/__init__.py": "from jax._src.pallas.pallas_call import pallas_call\n",
		"tests/api_test.py":                   "import jax\nfrom jax.experimental.pjit import pjit\n\npjit(abs)\n",
		"tests/lax_test.py":                   "import jax\nfrom jax._src import lax\n\nlax.ragged(1)\n",
		"tests/pallas/ring_test.py": `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, s, r):
    pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={"x": jax.lax.axis_index("x")}).start()


def test_ring():
    pl.pallas_call(kernel, out_shape=1, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(1)
`,
	}
	src := writeProject(t, pairs(files))
	compare(t, "jax's repository", src)
	res, _ := analysis.Check(context.Background(), src, withRules(analysis.Options{JAXVersion: lowering.Latest}))
	got := map[string]string{}
	for _, d := range res.Diagnostics {
		got[d.Code] = filepath.Base(d.File)
	}
	if want := map[string]string{"PAL101": "ring_test.py", "PAL302": "api_test.py"}; !reflect.DeepEqual(got, want) {
		t.Errorf("want %v, got %v", want, render(res.Diagnostics))
	}
}

// TestPruningKeepsModuleNames: when every kept file lies in one package
// directory, module names still count from the root of all the files, so
// `from app.kernels import run` resolves as it does without pruning.
func TestPruningKeepsModuleNames(t *testing.T) {
	files := mixedProject(t)
	var moved []analysis.SourceFile
	for _, f := range files {
		if filepath.Base(f.Path) == "main.py" {
			f.Path = filepath.Join(filepath.Dir(f.Path), "app", "main.py")
		}
		moved = append(moved, f)
	}
	compare(t, "kept files in one package", moved)
	res, _ := analysis.Check(context.Background(), moved, withRules(analysis.Options{JAXVersion: lowering.Latest}))
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "PAL101" {
		t.Errorf("want one PAL101, got %v", render(res.Diagnostics))
	}
}
