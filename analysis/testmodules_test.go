package analysis_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// testModulesProject: two test modules sharing kernels, a settings
// module and a helper called with many literals. test_a.py turns the ring
// off (state test_b.py must not see: each test module runs as if alone)
// and calls the helper often enough to widen it (counts test_b.py does
// see, as one pytest run would).
func testModulesProject(t *testing.T) []analysis.SourceFile {
	return writeProject(t, [][2]string{
		{"setup.py", ""},
		{"app/__init__.py", ""},
		{"app/settings.py", "class Options:\n    ring = True\n\n\nOPTIONS = Options()\n"},
		{"app/kernels.py", `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from app import settings


def ring_kernel(x_ref, o_ref, s, r):
    pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={"x": jax.lax.axis_index("x")}).start()


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


def local(x):
    return pl.pallas_call(local_kernel, out_shape=x)(x)


def maybe_ring(x):
    if settings.OPTIONS.ring:
        return ring(x)
    return local(x)


def size(n):
    return n * 2


def only_a(x):
    return jax.jit(maybe_ring)(x)


def only_b(x):
    return jax.jit(maybe_ring)(x)
`},
		{"tests/__init__.py", ""},
		{"tests/test_a.py", `from app import kernels, settings


def test_off():
    settings.OPTIONS.ring = False
    kernels.only_a(1)


def test_sizes():
    kernels.size(1)
    kernels.size(2)
    kernels.size(3)
    kernels.size(4)
    kernels.size(5)
    kernels.size(6)
    kernels.size(7)
    kernels.size(8)
    kernels.size(9)
    kernels.size(10)
    kernels.size(11)
    kernels.size(12)
    kernels.size(13)
`},
		{"tests/test_b.py", `from app import kernels


def test_ring():
    kernels.size(14)
    kernels.only_b(1)
`},
	})
}

// TestTestModulesDetached: a test module runs in the state the module
// top levels left, not in what an earlier test module changed: test_b.py
// reaches the ring kernel under a jit although test_a.py turned the ring off
// before it (pytest tests/test_b.py fails so), and test_a.py does not.
// (A global set from another module is read as the join of what is set
// anywhere, so the switch is an instance's attribute.)
func TestTestModulesDetached(t *testing.T) {
	res, err := analysis.Check(context.Background(), testModulesProject(t), withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true}))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range res.Diagnostics {
		if d.Code == "PAL101" && filepath.Base(d.File) == "kernels.py" && d.Pos.Line == 17 {
			found = found || strings.Contains(d.Message, "test_ring")
			if strings.Contains(d.Message, "test_off") {
				t.Errorf("test_off turned the ring off, yet reached it: %s", d.Message)
			}
		}
	}
	if !found {
		t.Errorf("no PAL101 on ring reached from test_ring: %v", res.Diagnostics)
	}
}

// TestTestModuleEditReplaysTheRest: editing a body only test_a.py runs
// resumes the run at test_a.py and replays test_b.py and the library
// entries; an edit that changes how often test_a.py evaluated a helper
// test_b.py calls too runs test_b.py again. Every result equals a fresh
// check's.
func TestTestModuleEditReplaysTheRest(t *testing.T) {
	files := testModulesProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	ki := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "kernels.py" })
	korig := files[ki].Src
	files[ki].Src = []byte(strings.Replace(string(korig), "def only_a(x):\n", "def only_a(x):\n    y = 1\n", 1))
	resumed, replayed := e.Resumed(), e.Replayed()
	if !warmEqualsFresh(t, e, files, opts, "only_a edited") {
		return
	}
	same := e.Replayed() - replayed
	if e.Resumed() == resumed || same < 1 || !e.LibraryReplayed() {
		t.Errorf("only_a edited: resumed %d, replayed %d entries, library replayed %v; want a resume replaying test_b.py and the library",
			e.Resumed()-resumed, same, e.LibraryReplayed())
	}
	files[ki].Src = korig
	warmEqualsFresh(t, e, files, opts, "only_a undone")

	ai := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "test_a.py" })
	aorig := files[ai].Src
	files[ai].Src = []byte(strings.Replace(string(aorig), "    kernels.size(1)\n", "", 1))
	resumed, replayed = e.Resumed(), e.Replayed()
	if !warmEqualsFresh(t, e, files, opts, "a size call removed") {
		return
	}
	if e.Resumed() == resumed || e.Replayed()-replayed >= same {
		t.Errorf("a size call removed: resumed %d, replayed %d entries; want a resume that runs test_b.py again (fewer than %d replayed)",
			e.Resumed()-resumed, e.Replayed()-replayed, same)
	}
	files[ai].Src = aorig
	warmEqualsFresh(t, e, files, opts, "size call back")

	// An edit test_b.py's replay does not see: the kernel call it records
	// again is the same record, whose fact (quoting kernels.py and
	// test_b.py, which did not move) is not rendered again.
	ring := func() *analysis.KernelCall {
		for _, f := range e.Facts() {
			if f.Kernel == "ring_kernel" {
				return f
			}
		}
		return nil
	}
	before := ring()
	files[ai].Src = []byte(strings.Replace(string(aorig), "def test_off():\n", "def test_off():\n    y = 1\n", 1))
	replayed = e.Replayed()
	if !warmEqualsFresh(t, e, files, opts, "test_off edited") {
		return
	}
	if after := ring(); before == nil || after != before || e.Replayed() == replayed {
		t.Errorf("test_off edited: ring_kernel's fact %p -> %p, replayed %d; want test_b.py replayed and the same fact", before, after, e.Replayed()-replayed)
	}
	files[ai].Src = aorig
	warmEqualsFresh(t, e, files, opts, "test_off undone")
}

// TestTestModulesResume types statements at the top of every body of
// testModulesProject: every result equals a fresh check's.
func TestTestModulesResume(t *testing.T) {
	edits, _, resumed := editEveryBody(t, []string{"testmodules"},
		[]string{"settings.OPTIONS.ring = not settings.OPTIONS.ring\n", "kernels.size(40)\n", "pass\n", "return kernels.ring(2)\n"})
	if resumed == 0 {
		t.Error("no edit resumed the last run")
	}
	t.Logf("%d of %d body edits resumed the last run", resumed, edits)
}

// TestCallMemoReused: after an edit that leaves a kernel call's fact as
// it was, the per-call rules return their findings for it from the last
// report, and they are the findings a fresh check makes.
func TestCallMemoReused(t *testing.T) {
	files := loadDir(t, "rules/testdata/PAL211/not_tiled")
	files = append(files, analysis.SourceFile{Path: filepath.Join(filepath.Dir(files[0].Path), "other.py"), Src: []byte("X = 1\n")})
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	res, err := e.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Diagnostics, func(d analysis.Diagnostic) bool { return d.Code == "PAL211" }) {
		t.Fatalf("no PAL211 finding in the fixture: %v", res.Diagnostics)
	}
	for i, edit := range []string{"X = 2\n", "# a comment\nX = 2\n"} {
		files[len(files)-1].Src = []byte(edit)
		before := e.MemoReused("PAL211")
		if !warmEqualsFresh(t, e, files, opts, edit) {
			return
		}
		if e.MemoReused("PAL211") == before {
			t.Errorf("edit %d (%q): PAL211 checked every call again", i, edit)
		}
	}
}
