package analysis_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestStepBudgetNote: a run that spends its step budget stops evaluating
// (what it had not reached is unknown, never an error), says so in a note
// at the entry it was running, and gives the same result with and without
// pruning; an edited workspace then re-runs instead of reusing the
// truncated run, so the editor still equals a fresh check.
func TestStepBudgetNote(t *testing.T) {
	files := loadDir(t, "../examples")
	opts := withRules(analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true})
	full, err := analysis.Check(context.Background(), files, opts)
	if err != nil {
		t.Fatal(err)
	}
	if full.Incomplete != "" {
		t.Fatalf("the examples spent the default budget: %s", full.Incomplete)
	}
	check := func(budget int, o analysis.Options) *analysis.Result {
		e := analysis.NewEngine()
		e.SetBudget(budget)
		res, err := e.Check(context.Background(), files, o)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, budget := range []int{1, 30, 300} {
		res := check(budget, opts)
		if res.Incomplete == "" || !strings.Contains(res.Incomplete, "step budget") {
			t.Fatalf("budget %d: no note of the truncated run (%d findings)", budget, len(res.Diagnostics))
		}
		found := false
		for _, n := range res.Notes {
			found = found || n.Message == res.Incomplete && n.File != ""
		}
		if !found {
			t.Errorf("budget %d: the note is missing from Notes or has no file: %v", budget, res.Notes)
		}
		if errs, fullErrs := countErrors(res), countErrors(full); errs > fullErrs {
			t.Errorf("budget %d: %d errors, more than the %d of a full run", budget, errs, fullErrs)
		}
		noPrune := opts
		noPrune.NoPrune = true
		if other := check(budget, noPrune); !reflect.DeepEqual(res.Diagnostics, other.Diagnostics) || res.Incomplete != other.Incomplete {
			t.Errorf("budget %d: pruning changed the truncated result", budget)
		}
	}
	// The editor: a truncated run is never reused.
	e := analysis.NewEngine()
	e.SetBudget(300)
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	before := e.Reused()
	files[0].Src = append([]byte("# an edit\n"), files[0].Src...)
	if _, err := e.Check(context.Background(), files, opts); err != nil {
		t.Fatal(err)
	}
	if e.Reused() != before {
		t.Error("a truncated run was reused after an edit")
	}
}

func countErrors(r *analysis.Result) int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Severity == analysis.SeverityError {
			n++
		}
	}
	return n
}

// TestKernelBodyCallingItsLauncher: a kernel body that (through
// shard_map) launches its own kernel again nests kernel scans without end;
// they are bounded, and the check finishes well within its budget.
func TestKernelBodyCallingItsLauncher(t *testing.T) {
	files := writeProject(t, [][2]string{{"loop.py", `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref):
    return run(1)


def ring(x):
    return pl.pallas_call(kernel, out_shape=x)(x)


def run(x):
    return jax.shard_map(ring, mesh=jax.make_mesh((4,), ("x",)), in_specs=P("x"), out_specs=P("x"))(x)


run(1)
`}})
	res, err := analysis.Check(context.Background(), files, withRules(analysis.Options{JAXVersion: lowering.Latest}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Incomplete != "" {
		t.Errorf("the run spent its budget: %s", res.Incomplete)
	}
}
