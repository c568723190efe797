package rules_test

import (
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
)

// TestValidate: pallas-ls's rule set passes the engine's checks of names,
// codes, severities, run functions, triggers and documentation; the
// titles of the fixes rules make are checked on every fixture finding
// (checkFixesValid) and every documented example (TestDocExamples).
func TestValidate(t *testing.T) {
	all := rules.All()
	if err := analysis.Validate(all); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(all); i++ {
		if all[i-1].Code >= all[i].Code {
			t.Errorf("rules.All is not in code order at %s", all[i].Code)
		}
	}
}
