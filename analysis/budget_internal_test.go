package analysis

import "testing"

// TestStepBudgetScales: the budget grows with the Python analysed, so a
// monorepo is not cut short where a small project would not be.
func TestStepBudgetScales(t *testing.T) {
	for _, c := range []struct{ bytes, want int }{
		{0, minBudget},
		{1 << 20, minBudget},
		{8_000_000, minBudget},
		{46_000_000, 23_000_000},
	} {
		if got := stepBudget(c.bytes); got != c.want {
			t.Errorf("stepBudget(%d) = %d, want %d", c.bytes, got, c.want)
		}
	}
}
