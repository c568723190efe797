package analysis_test

import (
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// TestCollectiveNamesMatchLowering: ir cannot import lowering, so it
// keeps its own list of the collectives PAL104 checks (the pre-scan and
// Summary.NamesSPMD read it); it must be exactly lowering's jax.lax APIs
// of the collective, axis-index and axis-size roles.
func TestCollectiveNamesMatchLowering(t *testing.T) {
	want := map[string]bool{}
	for _, a := range lowering.APIs() {
		switch a.Role {
		case lowering.RoleCollective, lowering.RoleAxisIndex, lowering.RoleAxisSize:
			name, ok := strings.CutPrefix(a.Name, "jax.lax.")
			if !ok {
				t.Fatalf("%s: a collective outside jax.lax; ir.CollectiveNames keys on jax.lax names", a.Name)
			}
			want[name] = true
		}
	}
	if len(want) != len(ir.CollectiveNames) {
		t.Fatalf("ir.CollectiveNames has %d names, lowering %d", len(ir.CollectiveNames), len(want))
	}
	for n := range want {
		if !ir.CollectiveNames[n] {
			t.Errorf("ir.CollectiveNames lacks %s", n)
		}
	}
}
