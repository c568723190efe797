package analysis_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestOtherOptionsRenderTheSameRun: `check` asks one engine for each
// settings group of a workspace, with that group's options and its files
// to report (Options.ReportOnly). Options the interpretation does not
// read (the JAX version, its reason, which files are reported) render
// the last run again instead of running it; each answer is what a fresh
// check with those options returns, and ReportOnly only filters.
// Options it reads (entry points) run it again.
func TestOtherOptionsRenderTheSameRun(t *testing.T) {
	files := loadDir(t, "rules/testdata/PAL101/statement_kinds")
	dir, _ := filepath.Abs("rules/testdata/PAL101/statement_kinds")
	// A per-file finding that depends on the version: PAL301 at 0.11.
	old := filepath.Join(dir, "zz_old_api.py")
	files = append(files, analysis.SourceFile{Path: old, Src: []byte(
		"from jax.experimental.pallas import tpu as pltpu\n\ndef kernel(sem):\n    pltpu.semaphore_signal(sem, 1)\n")})
	ctx := context.Background()
	newer := withRules(analysis.Options{JAXVersion: lowering.Latest, JAXVersionReason: "jax-version in a/pyproject.toml"})
	older := withRules(analysis.Options{JAXVersion: lowering.MustParse("0.5"), JAXVersionReason: "jax-version in b/pyproject.toml"})
	older.ReportOnly = map[string]bool{old: true, files[0].Path: true}

	e := analysis.NewEngine()
	e.OneShot = true
	check := func(o analysis.Options) *analysis.Result {
		t.Helper()
		r, err := e.Check(ctx, files, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	fresh := func(o analysis.Options) *analysis.Result {
		t.Helper()
		r, err := analysis.Check(ctx, files, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	wantNewer, wantOlder := fresh(newer), fresh(older)
	if !hasCode(wantNewer, "PAL301", old) || hasCode(wantOlder, "PAL301", old) {
		t.Fatal("the fixture's PAL301 does not depend on the version: the test proves less than it says")
	}
	if got := check(newer); !reflect.DeepEqual(got, wantNewer) {
		t.Fatalf("first group: %d findings, want %d", len(got.Diagnostics), len(wantNewer.Diagnostics))
	}
	if got := check(older); !reflect.DeepEqual(got, wantOlder) {
		t.Fatalf("second group, rendered from the first's run: %d findings, want %d", len(got.Diagnostics), len(wantOlder.Diagnostics))
	}
	if e.Reused() != 1 {
		t.Fatalf("the second group ran the analysis again (reused %d checks, want 1)", e.Reused())
	}
	// A version that is not exact scans the files with other triggers
	// (fileRules), and still renders the same run; so does going back.
	ranged := withRules(analysis.Options{JAXVersion: lowering.MustParse("0.5"), JAXVersionReason: "jax pin `jax>=0.5` in c/requirements.txt"})
	if ranged.ExactVersion() {
		t.Fatal("the third group's version is exact: the test proves less than it says")
	}
	if got, want := check(ranged), fresh(ranged); !reflect.DeepEqual(got, want) {
		t.Fatalf("third group (inexact version): %d findings, want %d", len(got.Diagnostics), len(want.Diagnostics))
	}
	if got := check(newer); !reflect.DeepEqual(got, wantNewer) {
		t.Fatalf("first group again: %d findings, want %d", len(got.Diagnostics), len(wantNewer.Diagnostics))
	}
	if e.Reused() != 3 {
		t.Fatalf("a group with other scan triggers ran the analysis again (reused %d checks, want 3)", e.Reused())
	}

	// ReportOnly filters what the same options report without it.
	all := older
	all.ReportOnly = nil
	var kept []analysis.Diagnostic
	for _, d := range fresh(all).Diagnostics {
		if older.ReportOnly[d.File] {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 || len(kept) == len(fresh(all).Diagnostics) {
		t.Fatalf("ReportOnly keeps %d of %d findings: the fixture does not exercise it", len(kept), len(fresh(all).Diagnostics))
	}
	if !reflect.DeepEqual(kept, wantOlder.Diagnostics) {
		t.Fatalf("ReportOnly: %d findings, want the %d of the full report in those files", len(wantOlder.Diagnostics), len(kept))
	}

	// Entry points change the run: no reuse, and the answer is still fresh.
	entry := newer
	entry.EntryPoints = []string{"kernels.nothing_here"}
	if got := check(entry); !reflect.DeepEqual(got, fresh(entry)) {
		t.Fatal("other entry points: not what a fresh check returns")
	}
	if e.Reused() != 3 {
		t.Fatalf("other entry points rendered the last run (reused %d, want 3)", e.Reused())
	}
}

func hasCode(r *analysis.Result, code, file string) bool {
	for _, d := range r.Diagnostics {
		if d.Code == code && d.File == file {
			return true
		}
	}
	return false
}
