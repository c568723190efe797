package cli

import (
	"slices"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestShareOrder: groups whose analyses differ (an exact pin and a range
// enable different per-file rule triggers) alternate in a monorepo; check
// takes the groups one analysis serves one after the other, so that the
// engine runs one analysis per ShareKey, not one per switch.
func TestShareOrder(t *testing.T) {
	g := func(reason string) *group {
		return &group{opts: analysis.Options{Analyzers: rules.All(), JAXVersion: lowering.Latest, JAXVersionReason: reason}}
	}
	exact, ranged := "jax pin `jax==0.11.0` in a/requirements.txt", "jax pin `jax>=0.11.0` in b/pyproject.toml"
	groups := []*group{g(exact), g(ranged), g(exact), g(ranged), g(exact)}
	if groups[0].opts.ShareKey() == groups[1].opts.ShareKey() {
		t.Fatal("an exact and a ranged pin share a key: the test proves nothing")
	}
	if got, want := shareOrder(groups), []int{0, 2, 4, 1, 3}; !slices.Equal(got, want) {
		t.Fatalf("shareOrder = %v, want %v", got, want)
	}
	if got, want := shareOrder(groups[1:2]), []int{0}; !slices.Equal(got, want) {
		t.Fatalf("one group: %v, want %v", got, want)
	}
}
