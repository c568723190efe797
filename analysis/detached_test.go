package analysis_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// scriptsProject: scripts whose main blocks share kernels, helpers and a
// settings module with tests and library functions. The main blocks
// mutate module globals and instances (which no other entry may see),
// define functions, import a module first, and call functions only they
// call (named in the block or not); a module imported by a script has a
// main block of its own, which must not run on that import.
func scriptsProject(t *testing.T) []analysis.SourceFile {
	return writeProject(t, [][2]string{
		{"setup.py", ""},
		{"app/__init__.py", ""},
		{"app/settings.py", `class Options:
    remote = True


OPTIONS = Options()
RING = True
AXIS = "x"
`},
		{"app/late.py", `from app import settings

settings.AXIS = "y"
settings.OPTIONS.remote = True
`},
		{"app/libonly.py", `from app import settings

settings.OPTIONS.remote = False
`},
		{"app/tool.py", `from app import settings


def describe():
    return settings.AXIS


if __name__ == "__main__":
    settings.OPTIONS.remote = False
`},
		{"app/kernels.py", `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P

from app import settings


def ring_kernel(x_ref, o_ref, s, r):
    if settings.RING:
        pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={settings.AXIS: jax.lax.axis_index(settings.AXIS)}).start()


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def ring_a(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


def ring_b(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


def ring_c(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


def local(x):
    return pl.pallas_call(local_kernel, out_shape=x)(x)


def sharded(x, mesh):
    return jax.shard_map(ring_a, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)


def maybe_ring(x):
    if settings.OPTIONS.remote:
        return ring_c(x)
    return local(x)


def ring_late(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


def launcher(x):
    import app.libonly

    maybe_ring(x)
    return jax.jit(ring_b)(helper(x))


def helper(x):
    return x
`},
		{"scripts/__init__.py", ""},
		{"scripts/bench_a.py", `import jax
import jax.numpy as jnp

from app import kernels, settings


def step(x):
    return kernels.ring_a(x)


def run_all(x, mesh):
    return inner(x, mesh)


def inner(x, mesh):
    return kernels.sharded(x, mesh)


if __name__ == "__main__":
    settings.RING = False
    settings.OPTIONS.remote = False
    x = jnp.ones((8, 128))
    print(jax.jit(step)(x))
    run_all(x, jax.make_mesh((4,), ("x",)))
`},
		{"scripts/bench_b.py", `import jax
import jax.numpy as jnp

from app import kernels, settings, tool


def main():
    x = jnp.ones((8, 128))
    jax.jit(kernels.ring_b)(x)
    if settings.RING:
        jax.jit(kernels.maybe_ring)(x)
    return tool.describe()


if __name__ == "__main__":
    main()
`},
		{"scripts/bench_late.py", `import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from app import kernels, settings


if __name__ == "__main__":
    import app.late

    def go(x, mesh):
        return jax.shard_map(kernels.ring_late, mesh=mesh, in_specs=P("y"), out_specs=P("y"))(x)

    if settings.OPTIONS.remote:
        go(jnp.ones((8, 128)), jax.make_mesh((4,), ("y",)))
    kernels.sharded(jnp.ones((8, 128)), jax.make_mesh((4,), ("x",)))
`},
		{"tests/test_kernels.py", `from app import kernels


def test_local():
    kernels.local(1)
`},
	})
}

// TestMainBlocksDetached: a main block sees the state the tests left, not
// what another script's main block did, and no main block runs on import.
func TestMainBlocksDetached(t *testing.T) {
	files := scriptsProject(t)
	res, err := analysis.Check(context.Background(), files, withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d %s", filepath.Base(d.File), d.Pos.Line, d.Code))
	}
	// bench_a.py's and bench_b.py's jits of ring_a and ring_b; and ring_c:
	// bench_b.py runs with RING and OPTIONS.remote on, as the tests left
	// them (bench_a.py's block turned both off, but left no state), so it
	// calls maybe_ring, which calls ring_c. Shared state (bench_a.py's
	// block first) would skip maybe_ring, and tool.py's block run on
	// import would make maybe_ring call local too.
	// And bench_late.py's block: `import app.late` set settings.AXIS to
	// "y", so ring_a under kernels.sharded's shard_map over a ("x",) mesh
	// asks axis_index("y"), which that mesh does not have (PAL104).
	// The shard_maps over jax.make_mesh meshes (Explicit axes at Latest)
	// given fresh jnp.ones arrays with in_specs P("x") / P("y"): PAL107.
	want := []string{"kernels.py:11 PAL104", "kernels.py:19 PAL101", "kernels.py:23 PAL101", "kernels.py:27 PAL101", "kernels.py:35 PAL107", "bench_late.py:12 PAL107"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, kc := range res.KernelCalls {
		if kc.Kernel == "local_kernel" && strings.Contains(strings.Join(kc.Contexts, " "), "bench_b") {
			t.Errorf("bench_b.py reached local(): tool.py's main block ran on import: %v", kc.Contexts)
		}
	}
}

// TestMainBlocksReplayed types statements at the top of every function
// body and main block of scriptsProject (and every fixture): edits of
// bodies only main blocks ran resume the run there, replaying the main
// blocks that ran none of them, and every result equals a fresh check's.
func TestMainBlocksReplayed(t *testing.T) {
	edits, _, resumed := editEveryBody(t, []string{"scripts"},
		[]string{"settings.RING = not settings.RING\n", "kernels.ring_a(1)\n", "pass\n", "return kernels.local(2)\n"})
	t.Logf("%d of %d body edits resumed the last run", resumed, edits)
	replayed := replayedIn(t, scriptsProject(t))
	if replayed == 0 {
		t.Error("no resumed check replayed a main block")
	}
}

// TestMainOnlyEditReplaysTheRest: editing a function only one script
// runs resumes the run at that script's main block and replays the other
// scripts and the library entries.
func TestMainOnlyEditReplaysTheRest(t *testing.T) {
	files := scriptsProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "bench_a.py" })
	orig := files[i].Src
	for _, edit := range []string{"    y = 2\n", "    settings.RING = True\n", "    return kernels.local(x)\n"} {
		files[i].Src = []byte(strings.Replace(string(orig), "def step(x):\n", "def step(x):\n"+edit, 1))
		resumed, replayed := e.Resumed(), e.Replayed()
		if !warmEqualsFresh(t, e, files, opts, "step edited: "+edit) {
			return
		}
		if e.Resumed() == resumed || e.Replayed()-replayed < 2 || !e.LibraryReplayed() {
			t.Errorf("%q: resumed %d, replayed %d entries, library replayed %v; want a resume replaying the other scripts and the library",
				edit, e.Resumed()-resumed, e.Replayed()-replayed, e.LibraryReplayed())
		}
	}
	files[i].Src = orig
	warmEqualsFresh(t, e, files, opts, "undone")
}

// replayedIn edits each main block of files in turn and counts the main
// blocks the resumed checks replayed, checking each result against a
// fresh check.
func replayedIn(t *testing.T, files []analysis.SourceFile) int {
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	for i := range files {
		orig := files[i].Src
		at := strings.Index(string(orig), "if __name__ == \"__main__\":\n")
		if at < 0 {
			continue
		}
		at += len("if __name__ == \"__main__\":\n")
		files[i].Src = []byte(string(orig[:at]) + "    y = 1\n" + string(orig[at:]))
		warmEqualsFresh(t, e, files, opts, filepath.Base(files[i].Path)+" main block edited")
		files[i].Src = orig
		warmEqualsFresh(t, e, files, opts, filepath.Base(files[i].Path)+" undone")
	}
	return e.Replayed()
}

// TestDetachedAfterCancel cancels a resumed check at every step it takes
// (in a main block it runs again, in the library entries): the next
// checks, with one more edit or none, equal fresh ones.
func TestDetachedAfterCancel(t *testing.T) {
	defer analysis.LookAtContextEveryStep()()
	files := scriptsProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	a := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "bench_a.py" })
	k := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "kernels.py" })
	origA, origK := files[a].Src, files[k].Src
	edits := []struct {
		i        int
		from, to string
	}{
		{a, "def step(x):\n", "def step(x):\n    settings.RING = True\n"}, // a main block's
		{k, "def helper(x):\n", "def helper(x):\n    ring_a(x)\n"},        // a library entry's
		{k, "def maybe_ring(x):\n", "def maybe_ring(x):\n    local(x)\n"}, // a main block's and a test's
	}
	for n, ed := range edits {
		edited := []byte(strings.Replace(string(files[ed.i].Src), ed.from, ed.to, 1))
		// How often the resuming check looks at its context.
		probe := analysis.NewEngine()
		probe.Check(context.Background(), files, opts)
		orig := files[ed.i].Src
		files[ed.i].Src = edited
		count := &cancelLater{Context: context.Background(), after: 1 << 30}
		probe.Check(count, files, opts)
		calls := 1<<30 - count.after
		files[ed.i].Src = orig
		if calls < 3 {
			t.Fatalf("edit %d: the resumed check looked at its context %d times", n, calls)
		}
		other := edits[(n+1)%len(edits)]
		step := 1
		if testing.Short() {
			step = 7
		}
		for cut := 1; cut < calls-1; cut += step {
			for _, more := range []bool{false, true} {
				files[a].Src, files[k].Src = origA, origK
				e := analysis.NewEngine()
				if _, err := e.Check(context.Background(), files, opts); err != nil {
					t.Fatal(err)
				}
				files[ed.i].Src = edited
				if _, err := e.Check(&cancelLater{Context: context.Background(), after: cut}, files, opts); err == nil {
					t.Fatalf("edit %d, cut %d: the check was not cancelled", n, cut)
				}
				if more {
					files[other.i].Src = []byte(strings.Replace(string(files[other.i].Src), other.from, other.to, 1))
				}
				name := fmt.Sprintf("edit %d cancelled at look %d of %d (more edits: %v)", n, cut, calls, more)
				if !warmEqualsFresh(t, e, files, opts, name) {
					return
				}
				files[a].Src, files[k].Src = origA, origK
				if !warmEqualsFresh(t, e, files, opts, name+", undone") {
					return
				}
			}
		}
		t.Logf("edit %d: cancelled at every %d of %d looks", n, step, calls-2)
	}
}

// TestModuleOnlyAScriptRuns: a module only a main block imports ran in
// that block, though the block took its state back: editing it must not
// take the path of modules no entry ran.
func TestModuleOnlyAScriptRuns(t *testing.T) {
	files := scriptsProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "late.py" })
	orig := files[i].Src
	for _, src := range []string{
		strings.Replace(string(orig), `settings.AXIS = "y"`, `settings.AXIS = "x"`, 1),
		string(orig) + "\n\ndef later():\n    return 1\n",
		strings.Replace(string(orig), "remote = True", "remote = False", 1),
	} {
		files[i].Src = []byte(src)
		unrun := e.Unrun()
		if !warmEqualsFresh(t, e, files, opts, "late.py edited") {
			return
		}
		if e.Unrun() != unrun {
			t.Errorf("late.py ran in a main block, yet its edit took the path of files no entry ran")
		}
		files[i].Src = orig
		if !warmEqualsFresh(t, e, files, opts, "late.py undone") {
			return
		}
	}
}

// TestModuleOnlyALibraryEntryRuns: a module only a library entry imports,
// after a check that replayed the library entries (which leaves their
// state out of the journal), is still known to have run.
func TestModuleOnlyALibraryEntryRuns(t *testing.T) {
	files := scriptsProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	a := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "bench_a.py" })
	files[a].Src = []byte(strings.Replace(string(files[a].Src), "def step(x):\n", "def step(x):\n    y = 1\n", 1))
	if !warmEqualsFresh(t, e, files, opts, "bench_a.py edited") {
		return
	}
	if !e.LibraryReplayed() {
		t.Fatal("the library entries were not replayed")
	}
	i := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "libonly.py" })
	files[i].Src = []byte(strings.Replace(string(files[i].Src), "remote = False", "remote = True", 1))
	unrun := e.Unrun()
	warmEqualsFresh(t, e, files, opts, "libonly.py edited")
	if e.Unrun() != unrun {
		t.Error("libonly.py ran in a library entry, yet its edit took the path of files no entry ran")
	}
}

// scriptTopLevelProject: benchmarks that run kernels at their top levels
// (no main block, no importer), two test modules, and a module whose main
// block turns a flag off.
func scriptTopLevelProject(t *testing.T) []analysis.SourceFile {
	return writeProject(t, [][2]string{
		{"app/__init__.py", ""},
		{"app/flags.py", "RING = True\n\nif __name__ == \"__main__\":\n    RING = False\n"},
		{"app/kernels.py", `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from app import flags


def ring_kernel(x_ref, o_ref, s, r):
    pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={"x": jax.lax.axis_index("x")}).start()


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


def local(x):
    if flags.RING:
        return pl.pallas_call(local_kernel, out_shape=x)(x)
    return ring(x)
`},
		{"bench/run_ring.py", `import jax
import jax.numpy as jnp

from app import kernels

x = jnp.ones((8, 128))
print(jax.jit(kernels.ring)(x))
`},
		{"bench/sweep.py", "from app import kernels\n\nfor n in (1, 2):\n    kernels.local(n)\n"},
		{"tests/test_a.py", "from app import kernels\n\n\ndef test_local():\n    kernels.local(1)\n"},
		{"tests/test_b.py", "from app import kernels\n\n\ndef test_local_again():\n    kernels.local(2)\n"},
	})
}

// TestScriptTopLevelDetached: a module no file imports runs as a script,
// detached like a main block: what its top level and main block do no
// other entry sees (flags.py's block never turns RING off for the tests),
// and an edit of a body only a script's top level runs resumes at that
// script, after the tests (which a resume at a module top level would run
// again), replaying the later script and the library entries, with the
// result of a fresh check.
func TestScriptTopLevelDetached(t *testing.T) {
	files := scriptTopLevelProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	res, err := e.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d %s %s", filepath.Base(d.File), d.Pos.Line, d.Code, d.Severity))
	}
	// run_ring.py's jit of ring, and nothing from local(): the tests run
	// with RING on.
	if want := "kernels.py:17 PAL101 error"; strings.Join(got, ", ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	k := slices.IndexFunc(files, func(f analysis.SourceFile) bool { return filepath.Base(f.Path) == "kernels.py" })
	orig := files[k].Src
	for _, edit := range []string{"    y = 2\n", "    x = x + 0\n"} {
		files[k].Src = []byte(strings.Replace(string(orig), "def ring(x):\n", "def ring(x):\n"+edit, 1))
		resumed, replayed := e.Resumed(), e.Replayed()
		if !warmEqualsFresh(t, e, files, opts, "ring edited: "+edit) {
			return
		}
		if e.Resumed() == resumed || e.Replayed()-replayed < 1 || !e.LibraryReplayed() {
			t.Errorf("%q: resumed %d, replayed %d entries, library replayed %v; want a resume replaying sweep.py and the library",
				edit, e.Resumed()-resumed, e.Replayed()-replayed, e.LibraryReplayed())
		}
	}
	files[k].Src = orig
	warmEqualsFresh(t, e, files, opts, "undone")
}
