package analysis_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestResultCacheSharedAcrossShowInfo: a `check` that hides infos and
// the language server that shows them share one saved result, so a check
// warms the editor's first diagnostics; each gets what a fresh check with
// its own options returns.
func TestResultCacheSharedAcrossShowInfo(t *testing.T) {
	files := loadDir(t, "rules/testdata/PAL101/statement_kinds") // a library function with an info hint
	hide := withRules(analysis.Options{JAXVersion: lowering.Latest})
	show := hide
	show.ShowInfo = true
	ctx := context.Background()
	wantHide, err := analysis.Check(ctx, files, hide)
	if err != nil {
		t.Fatal(err)
	}
	wantShow, err := analysis.Check(ctx, files, show)
	if err != nil {
		t.Fatal(err)
	}
	if len(wantShow.Diagnostics) <= len(wantHide.Diagnostics) {
		t.Fatalf("the fixture gives no info-level finding (%d with infos, %d without): the test proves nothing", len(wantShow.Diagnostics), len(wantHide.Diagnostics))
	}
	st := &memStore{m: map[string][]byte{}}
	check := func(o analysis.Options) *analysis.Result {
		e := analysis.NewEngine()
		e.OneShot, e.Store, e.ToolID = true, st, "test"
		r, err := e.Check(ctx, files, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if got := check(hide); !reflect.DeepEqual(got, wantHide) {
		t.Fatalf("first check without infos: %d findings, want %d", len(got.Diagnostics), len(wantHide.Diagnostics))
	}
	if len(st.m) == 0 {
		t.Fatal("the check saved nothing")
	}
	r, ok := analysis.CachedResult(st, "test", files, show)
	if !ok {
		t.Fatal("the server's lookup (infos shown) finds nothing a check without infos saved")
	}
	if !reflect.DeepEqual(r, wantShow) {
		t.Fatalf("cached for the server: %d findings, want %d (with infos)", len(r.Diagnostics), len(wantShow.Diagnostics))
	}
	if r, ok := analysis.CachedResult(st, "test", files, hide); !ok || !reflect.DeepEqual(r, wantHide) {
		t.Fatalf("cached without infos: ok=%v, want the fresh result", ok)
	}
	if got := check(hide); !reflect.DeepEqual(got, wantHide) {
		t.Fatalf("second check (from the cache) without infos: %d findings, want %d", len(got.Diagnostics), len(wantHide.Diagnostics))
	}
	if got := check(show); !reflect.DeepEqual(got, wantShow) {
		t.Fatalf("check with infos (from the cache): %d findings, want %d", len(got.Diagnostics), len(wantShow.Diagnostics))
	}
}
