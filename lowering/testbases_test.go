package lowering

import "testing"

func TestLookupTestBaseMethod(t *testing.T) {
	for _, base := range []string{"jax._src.pallas.pallas_test_util.PallasTest", "jax._src.pallas.pallas_test_util.PallasTPUTest"} {
		m, ok := LookupTestBaseMethod(base, "pallas_call")
		if !ok || m.API != base+".pallas_call" || m.SelfKw["interpret"] != "INTERPRET" || m.Defaults["INTERPRET"] {
			t.Errorf("%s.pallas_call = %+v, %v; want pl.pallas_call with interpret=self.INTERPRET (False)", base, m, ok)
		}
		if a, ok := Lookup(m.API); !ok || a.Role != RolePallasCall {
			t.Errorf("%s forwards to %s, which the API table does not know as a pallas_call", base, m.API)
		}
	}
	if a, _ := Lookup(pallasTestUtil + "PallasTPUTest.pallas_call"); a.Backend != BackendTPU {
		t.Errorf("PallasTPUTest.pallas_call has backend %v, want TPU", a.Backend)
	}
	for _, c := range [][2]string{
		{"jax._src.pallas.pallas_test_util.PallasTest", "setUp"},
		{"jax._src.test_util.JaxTestCase", "pallas_call"},
	} {
		if m, ok := LookupTestBaseMethod(c[0], c[1]); ok {
			t.Errorf("%s.%s = %+v; want unknown", c[0], c[1], m)
		}
	}
}
