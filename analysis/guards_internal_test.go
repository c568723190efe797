package analysis

import (
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// TestDeviceCountGuards: which `if` statements make the code after them
// run on one device (execIf: spmdCtx.OneDevice). Only a test that holds
// exactly with several devices, whose body ends the block, counts.
func TestDeviceCountGuards(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"if jax.device_count() > 1:\n    self.skipTest('one device')\n", true},
		{"if jax.local_device_count() != 1:\n    return\n", true},
		{"if len(jax.devices()) >= 2:\n    raise unittest.SkipTest('x')\n", true},
		{"if len(jax.local_devices()) > 1:\n    pytest.skip('x')\n", true},
		{"if jax.device_count() > 1:\n    print('several')\n", false},           // the body falls through
		{"if jax.device_count() < 2:\n    self.skipTest('needs two')\n", false}, // the opposite guard
		{"if jax.device_count() > 2:\n    return\n", false},                     // two devices remain possible
		{"if jnp.device_count() > 1:\n    return\n", false},
		{"if len(devices) > 1:\n    return\n", false},
	} {
		s := ir.Summarize("t.py", []byte("def f(self):\n"+indent(tc.src)))
		st := s.Defs[0].Body[0]
		got := st.Kind == ir.StIf && len(st.Else) == 0 && multiDeviceTest(st.Cond) && endsBlock(st.Body)
		if got != tc.want {
			t.Errorf("%q: guard = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func indent(src string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(src, "\n"), "\n", "\n    ") + "\n"
}

// TestRaisesBlockTypes: which raises-blocks catch only specific builtin
// exceptions (the kernel calls inside are still checked for the others),
// and which errors each catches.
func TestRaisesBlockTypes(t *testing.T) {
	for _, tc := range []struct {
		with    string
		expects []string
		catches map[string]bool
	}{
		{"self.assertRaisesRegex(ValueError, 'x')", []string{"ValueError"}, map[string]bool{"ValueError": true, "NameError": false}},
		{"pytest.raises((TypeError, ValueError))", []string{"TypeError", "ValueError"}, map[string]bool{"TypeError": true, "NotImplementedError": false}},
		{"self.assertRaises(RuntimeError)", []string{"RuntimeError"}, map[string]bool{"NotImplementedError": true, "ValueError": false}},
		{"self.assertRaises(Exception)", nil, nil},
		{"self.assertRaises(jax.errors.JaxRuntimeError)", []string{"JaxRuntimeError"}, map[string]bool{"NameError": false, "NotImplementedError": false}},
		{"pytest.raises(jax.errors.ConcretizationTypeError)", nil, nil},
		{"pytest.raises(MyError)", nil, nil},
		{"pytest.raises(errors)", nil, nil},
	} {
		s := ir.Summarize("t.py", []byte("with "+tc.with+":\n    pass\n"))
		got := expectedTypes(s.Body[0].Items[0].Ctx)
		if strings.Join(got, ",") != strings.Join(tc.expects, ",") {
			t.Errorf("%s: expects %v, want %v", tc.with, got, tc.expects)
		}
		r := Reach{Expects: got}
		for typ, want := range tc.catches {
			if r.Catches(typ) != want {
				t.Errorf("%s: catches %s = %v, want %v", tc.with, typ, !want, want)
			}
		}
	}
	if (Reach{}).Catches("ValueError") {
		t.Error("a reach outside any raises-block catches ValueError")
	}
}
