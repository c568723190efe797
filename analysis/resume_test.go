package analysis_test

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// stateProject: entries that hand state to the ones after them, through
// every kind of change the journal undoes (journal.go): a module global
// set from a test (`state.RING = False`), an attribute of a module-level
// instance and of a class, a module first imported inside a test, memoised
// helpers, a dataclass, and kernel calls reached again by later entries
// (shorter witnesses replace longer ones). Editing a function that a later
// entry runs first makes a check resume from that entry.
func stateProject(t *testing.T) []analysis.SourceFile {
	return writeProject(t, [][2]string{
		{"setup.py", ""},
		{"app/__init__.py", ""},
		{"app/state.py", `import dataclasses


class Config:
    remote = True


@dataclasses.dataclass
class Plan:
    axis: str = "x"
    remote: bool = True


CONFIG = Config()
RING = True
AXIS = "x"
`},
		{"app/lazy.py", `from app import state

state.AXIS = "y"
`},
		{"app/kernels.py", `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from app import state


def kernel(x_ref, o_ref, s, r):
    if state.RING:
        pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={state.AXIS: jax.lax.axis_index(state.AXIS)}).start()


def run(x):
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)


def helper_a(x):
    return x + 1


def helper_b(x):
    return helper_a(x)


def via_plan(plan, x):
    if plan.remote:
        return run(x)
    return x


def under_jit(x):
    return jax.jit(run)(x)
`},
		{"tests/test_flow.py", `from app import kernels, state


def test_a():
    state.RING = False
    state.CONFIG.remote = False
    kernels.helper_a(1)


def test_b():
    import app.lazy
    kernels.run(1)
    kernels.helper_b(1)


def test_c():
    state.RING = True
    state.Config.remote = True
    kernels.via_plan(state.Plan(remote=state.CONFIG.remote), 2)


def test_d():
    kernels.under_jit(3)
    kernels.run(4)


class TestK:
    def setup_method(self):
        self.plan = state.Plan()

    def test_m(self):
        kernels.via_plan(self.plan, 5)
        kernels.helper_b(2)
`},
	})
}

// TestResumeMatchesFresh types statements at the top of every function body
// of every fixture and of stateProject: an edit of a body the last run
// executed resumes the run from the first entry that executed it, and
// every result equals a fresh check's.
func TestResumeMatchesFresh(t *testing.T) {
	edits, _, resumed := editEveryBody(t, []string{"state", "inert"},
		[]string{"extra_ = helper_a(1)\n", "return run(1)\n", "state.RING = not state.RING\n", "pass\n"})
	if resumed == 0 {
		t.Error("no edit resumed the last run")
	}
	t.Logf("%d of %d body edits resumed the last run", resumed, edits)
}

// editEveryBody types each of stmts at the top of every function body of
// every fixture, the examples and the named projects, one engine per
// project, checking after each edit and after undoing it that the warm
// engine's result equals a fresh check's. It counts the edits, and those
// that took the dead-body path and that resumed the last run.
func editEveryBody(t *testing.T, projects, stmts []string) (edits, dead, resumed int) {
	return editEverywhere(t, projects, stmts, firstBodyLines)
}

// editEverywhere is editEveryBody at the places (offsets, and indents)
// points finds in each file.
func editEverywhere(t *testing.T, projects, stmts []string, points func([]byte) ([]int, [][]byte)) (edits, dead, resumed int) {
	t.Helper()
	cases, _ := filepath.Glob("rules/testdata/PAL*/*")
	cases = append(append(cases, "../examples"), projects...)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	for _, dir := range cases {
		files := projectFiles(t, dir)
		if len(files) == 0 {
			continue
		}
		e := analysis.NewEngine()
		if _, err := e.Check(context.Background(), files, opts); err != nil {
			t.Fatal(err)
		}
		for i := range files {
			orig := files[i].Src
			at, indent := points(orig)
			for k, off := range at {
				for _, stmt := range stmts {
					ed := append(append(append([]byte{}, orig[:off]...), indent[k]...), stmt...)
					files[i].Src = append(ed, orig[off:]...)
					d, r := e.DeadBodies(), e.Resumed()
					if !warmEqualsFresh(t, e, files, opts, fmt.Sprintf("%s/%s place %d: %q", dir, filepath.Base(files[i].Path), k, stmt)) {
						return
					}
					dead, resumed, edits = dead+e.DeadBodies()-d, resumed+e.Resumed()-r, edits+1
				}
				files[i].Src = orig
				warmEqualsFresh(t, e, files, opts, fmt.Sprintf("%s/%s place %d undone", dir, filepath.Base(files[i].Path), k))
			}
		}
	}
	return edits, dead, resumed
}

// projectFiles returns the files of a test project: one of the projects
// the tests write (state, inert, dead, mixed), or a directory's.
func projectFiles(t *testing.T, dir string) []analysis.SourceFile {
	switch dir {
	case "state":
		return stateProject(t)
	case "inert":
		return inertProject(t)
	case "dead":
		return deadProject(t)
	case "mixed":
		return mixedProject(t)
	case "scripts":
		return scriptsProject(t)
	case "testmodules":
		return testModulesProject(t)
	}
	return loadDir(t, dir)
}

// TestResumeRandomEdits types random lines into stateProject's kernels and
// tests, in runs of a few edits from the original text: inside bodies
// (resumed), at module level (run again), breaking the syntax. Every
// result equals a fresh check.
func TestResumeRandomEdits(t *testing.T) {
	files := stateProject(t)
	var targets []int
	for i, f := range files {
		if b := filepath.Base(f.Path); b == "kernels.py" || b == "test_flow.py" {
			targets = append(targets, i)
		}
	}
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	snippets := []string{
		"    x = 1\n", "    state.RING = False\n", "    state.CONFIG.remote = True\n", "    return run(2)\n",
		"    kernels.run(9)\n", "    helper_b(3)\n", "    state.Config.remote = False\n", "    import app.lazy\n",
		"        pass\n", "    kernels.via_plan(state.Plan(remote=False), 1)\n", "    (\n", "def extra():\n    return 1\n",
		"    state.AXIS = 'z'\n", "    return x\n",
	}
	rng := rand.New(rand.NewSource(7))
	steps := 400
	if testing.Short() {
		steps = 100
	}
	orig := map[int][]byte{}
	for _, i := range targets {
		orig[i] = files[i].Src
	}
	before := e.Resumed()
	for s := 0; s < steps; s++ {
		i := targets[rng.Intn(len(targets))]
		src := files[i].Src
		if s%6 == 0 {
			src = orig[i]
		}
		next := insertLine(rng, src, snippets)
		files[i].Src = next
		if !warmEqualsFresh(t, e, files, opts, fmt.Sprintf("step %d (%s)", s, filepath.Base(files[i].Path))) {
			t.Logf("text:\n%s", next)
			break
		}
	}
	if e.Resumed() == before {
		t.Error("no random edit resumed the last run")
	}
	t.Logf("%d of %d random edits resumed the last run", e.Resumed()-before, steps)
}

// TestResumeAfterCancel: a check cancelled while it resumes takes the run
// back to where it resumed from; the next checks resume from there at the
// latest (with more edits in between or none), and equal fresh ones.
func TestResumeAfterCancel(t *testing.T) {
	files := stateProject(t)
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	e := analysis.NewEngine()
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	i := len(files) - 1 // tests/test_flow.py
	orig := files[i].Src
	edited := []byte(strings.Replace(string(orig), "    kernels.helper_b(1)\n", "    kernels.helper_b(1)\n    kernels.run(7)\n", 1))
	// How often a resuming check asks its context: the last time is after
	// the run, before its result is reported.
	probe := analysis.NewEngine()
	probe.Check(context.Background(), files, opts)
	files[i].Src = edited
	count := &cancelLater{Context: context.Background(), after: 1 << 30}
	probe.Check(count, files, opts)
	calls := 1<<30 - count.after
	for _, more := range []bool{false, true} {
		files[i].Src = edited
		before := e.Resumed()
		if _, err := e.Check(&cancelLater{Context: context.Background(), after: calls - 1}, files, opts); err == nil {
			t.Fatal("the check was not cancelled")
		}
		if e.Resumed() == before {
			t.Fatal("the cancelled check did not resume")
		}
		if more {
			files[i].Src = []byte(strings.Replace(string(files[i].Src), "def test_d():\n", "def test_d():\n    kernels.helper_a(5)\n", 1))
		}
		before = e.Resumed()
		warmEqualsFresh(t, e, files, opts, fmt.Sprintf("after a cancelled check (more edits: %v)", more))
		if e.Resumed() == before {
			t.Errorf("the check after a cancelled one did not resume (more edits: %v)", more)
		}
		files[i].Src = orig
		warmEqualsFresh(t, e, files, opts, "undone")
	}
}

// cancelLater is a context that reports itself cancelled from its
// (after+1)th Err call on: a check sees it live when it starts.
type cancelLater struct {
	context.Context
	after int
}

func (c *cancelLater) Err() error {
	if c.after--; c.after < 0 {
		return context.Canceled
	}
	return nil
}

// TestModuleLevelEditsResume types a module-level statement before every
// top-level def and class of every fixture, the examples and the state
// and scripts projects: the run resumes from the entry that first ran the
// module, and every result equals a fresh check's.
func TestModuleLevelEditsResume(t *testing.T) {
	edits, _, resumed := editEverywhere(t, []string{"state", "scripts"}, []string{"extra_ = 1\n", "RING = False\n"}, topLevelDefs)
	if resumed == 0 {
		t.Error("no module-level edit resumed the last run")
	}
	t.Logf("%d of %d module-level edits resumed the last run", resumed, edits)
}

// topLevelDefs returns the offsets of the lines that start a top-level def
// or class (no indent).
func topLevelDefs(src []byte) (at []int, indent [][]byte) {
	off := 0
	for _, l := range strings.SplitAfter(string(src), "\n") {
		if strings.HasPrefix(l, "def ") || strings.HasPrefix(l, "class ") {
			at, indent = append(at, off), append(indent, nil)
		}
		off += len(l)
	}
	return at, indent
}
