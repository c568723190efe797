package analysis_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// inertProject: library functions of a Pallas module, some inert (shape
// arithmetic, jnp maths, pl.cdiv, helpers of a plain module) and some that
// only look it: each reaches a kernel through a path the inert test must
// see (a global launcher, a local that may fall back to the global of its
// name, a closure, a module attribute, a default value, Pallas held bare,
// a partial, an import inside the body).
func inertProject(t *testing.T) []analysis.SourceFile {
	// Each look-alike reaches its own launcher, so that each is the first
	// (the witness) to reach that kernel call: skipping one would change
	// the witness path of a fact.
	ring := `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, s, r):
    pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={"x": jax.lax.axis_index("x")}).start()
`
	for i := 1; i <= 8; i++ {
		ring += fmt.Sprintf("\n\ndef launch%d(x):\n    return pl.pallas_call(kernel, out_shape=x)(x)\n", i)
	}
	return writeProject(t, [][2]string{
		{"setup.py", ""}, // module names count from here: lib.ring
		{"lib/__init__.py", ""},
		{"lib/shapes.py", `import math

from lib import ring as ring_mod  # unused: an edit below calls it


def round_up(x, m):
    return (x + m - 1) // m * m


def blocks(n):
    return [round_up(n, 8) for _ in range(math.ceil(n / 8))]


def unused_helper(n):
    return n
`},
		{"lib/ring.py", ring},
		{"lib/ops.py", `import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from lib import ring
from lib.ring import launch1, launch2, launch3, launch5, launch6
from lib.shapes import blocks
from lib import shapes  # has run: the import above ran it

BLOCK = 128


def make_launcher():
    def go(x):
        return launch3(x)

    return go


closure = make_launcher()
bound = functools.partial(launch5)


# Inert: nothing here can reach a kernel.
def padded(n):
    return shapes.round_up(n, BLOCK)


def normalize(x, eps=1e-6):
    m = jnp.mean(x, axis=-1, keepdims=True)
    return (x - m) / jnp.sqrt(jnp.var(x) + eps)


def grid(n):
    return (pl.cdiv(n, BLOCK), blocks(n))


def nested(x):
    def inner(y):
        return jnp.tanh(y)

    return jax.lax.fori_loop(0, 4, lambda i, c: inner(c), x)


def helper_default(x, fn=launch6):
    return fn(x)  # its parameters are opaque as a library entry


# Look-alikes: each reaches a launcher of ring.
def calls_global(x):
    return launch1(x)


def shadowed(x):
    y = launch2(x)  # read before the local is bound: the global
    launch2 = None
    return y


def via_closure(x):
    return closure(x)


def via_module(x):
    return ring.launch4(x)


def via_partial(x):
    return bound(x)


def via_default(x):
    return helper_default(x)


def bare_pallas(x):
    p = pl
    return p.pallas_call(ring.kernel, out_shape=x)(x)


def imports_inside(x):
    from lib.ring import launch7 as go
    return go(x)


def not_inert(x):
    def never():
        return shapes.unused_helper(x)  # read by the test, never called

    return launch1(x)  # calls_global's path is as short: it stays launch1's witness
`},
	})
}

func writeProject(t *testing.T, project [][2]string) []analysis.SourceFile {
	root := t.TempDir()
	var files []analysis.SourceFile
	for _, f := range project {
		p := filepath.Join(root, f[0])
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f[1]), 0o644)
		files = append(files, analysis.SourceFile{Path: p, Src: []byte(f[1])})
	}
	return files
}

// TestInertMatchesEvaluation: skipping inert library functions changes
// nothing in any result (fixtures, examples, and the look-alikes above,
// each of which yields a kernel call that a wrong skip would lose), and
// it does skip the inert ones.
func TestInertMatchesEvaluation(t *testing.T) {
	cases, _ := filepath.Glob("rules/testdata/PAL*/*")
	cases = append(cases, "../examples", "inert", "dead", "mixed")
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	skipped := 0
	for _, dir := range cases {
		files := projectFiles(t, dir)
		if len(files) == 0 {
			continue
		}
		check := func(noInert bool) (*analysis.Result, int) {
			e := analysis.NewEngine()
			e.SetNoInert(noInert)
			res, err := e.Check(context.Background(), files, opts)
			if err != nil {
				t.Fatal(err)
			}
			return res, e.Inert()
		}
		got, n := check(false)
		want, _ := check(true)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: skipping inert functions changed the result:\nskip: %v\n      %v\nrun:  %v\n      %v",
				dir, render(got.Diagnostics), contexts(got), render(want.Diagnostics), contexts(want))
		}
		skipped += n
		if dir != "inert" {
			continue
		}
		if n != 5 {
			t.Errorf("inert project: %d library functions skipped, want the 5 inert ones", n)
		}
		witnesses := map[string]bool{}
		for _, c := range contexts(want) {
			if i := strings.LastIndex(c, "library function "); i >= 0 {
				witnesses[c[i+len("library function "):]] = true
			}
		}
		for _, fn := range []string{"calls_global", "shadowed", "via_closure", "via_module", "via_partial", "via_default", "bare_pallas", "imports_inside"} {
			if !witnesses[fn] {
				t.Errorf("inert project: the look-alike %s is the witness of no kernel call, so it tests nothing: %v", fn, witnesses)
			}
		}
	}
	if skipped == 0 {
		t.Error("no library function was skipped as inert")
	}
}

func contexts(r *analysis.Result) []string {
	var out []string
	for _, kc := range r.KernelCalls {
		for _, c := range kc.Contexts {
			out = append(out, fmt.Sprintf("%s:%d %s", filepath.Base(kc.File), kc.Pos.Line, c))
		}
	}
	return out
}

// TestInertEditsRerun: an edit that makes a skipped function reach a
// kernel (in a helper of another module it calls, or in a function nested
// in it) re-runs the analysis: the functions an inert one could evaluate
// count as called, so the dead-body path does not keep the last run.
func TestInertEditsRerun(t *testing.T) {
	files := inertProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	before, err := e.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, ed := range []struct{ file, old, new string }{
		{"shapes.py", "    return (x + m - 1) // m * m", "    return ring_mod.launch8(x)"},
		{"ops.py", "        return jnp.tanh(y)", "        return ring.launch8(y)"},
	} {
		i := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == ed.file })
		orig := files[i].Src
		files[i].Src = []byte(strings.Replace(string(orig), ed.old, ed.new, 1))
		if warmEqualsFresh(t, e, files, opts, ed.file+": "+ed.new) {
			after, _ := analysis.Check(context.Background(), files, opts)
			if reflect.DeepEqual(contexts(before), contexts(after)) {
				t.Errorf("%s: the edit changed no witness, so it tests nothing", ed.file)
			}
		}
		files[i].Src = orig
		warmEqualsFresh(t, e, files, opts, ed.file+" undone")
	}
}

// TestInertCacheDropsNewBodies: the inert test's answers carry from run to
// run by function, and an edit the dead-body path keeps gives an old
// function a new body: its answer must be read again.
func TestInertCacheDropsNewBodies(t *testing.T) {
	files := inertProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	shapes := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "shapes.py" })
	ops := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "ops.py" })
	// unused_helper never ran (the test only read it): the dead-body path.
	dead := e.DeadBodies()
	files[shapes].Src = []byte(strings.Replace(string(files[shapes].Src), "def unused_helper(n):\n    return n", "def unused_helper(n):\n    return ring_mod.launch8(n)", 1))
	warmEqualsFresh(t, e, files, opts, "unused_helper reaches launch8")
	if e.DeadBodies() == dead {
		t.Fatal("the edit of unused_helper did not take the dead-body path")
	}
	// A new library function that reads it: a full run, which must see
	// unused_helper's new body and run the function.
	files[ops].Src = append(files[ops].Src, "\n\ndef later(n):\n    return shapes.unused_helper(n)\n"...)
	warmEqualsFresh(t, e, files, opts, "later calls unused_helper")
}
