package lowering

// JAX's own Pallas tests call kernels through their base class:
// jax/_src/pallas/pallas_test_util.py's PallasTest.pallas_call(self,
// *args, **kwargs) is pl.pallas_call(*args, **kwargs,
// interpret=self.INTERPRET), INTERPRET False on the base (a subclass sets
// it True for its interpret-mode copy), and PallasTPUTest inherits it.
// The analysis never follows `jax` imports into the workspace, so the
// method is known from this table instead.

// TestBaseMethod is a method of a JAX test base class that forwards to a
// Pallas API.
type TestBaseMethod struct {
	API string // the API it calls with its arguments
	// SelfKw maps a keyword the method adds to the call to the class
	// attribute whose value it passes.
	SelfKw map[string]string
	// Defaults are the base class's values of those attributes.
	Defaults map[string]bool
}

const pallasTestUtil = "jax._src.pallas.pallas_test_util."

var testBaseMethods = map[string]TestBaseMethod{
	pallasTestUtil + "PallasTest.pallas_call":    pallasTestCall(pallasTestUtil + "PallasTest.pallas_call"),
	pallasTestUtil + "PallasTPUTest.pallas_call": pallasTestCall(pallasTestUtil + "PallasTPUTest.pallas_call"),
}

// pallasTestCall forwards to api, a pallas_call of its own in the API
// table (testBaseAPIs) so that the TPU-only class marks its kernels TPU.
func pallasTestCall(api string) TestBaseMethod {
	return TestBaseMethod{
		API:      api,
		SelfKw:   map[string]string{"interpret": "INTERPRET"},
		Defaults: map[string]bool{"INTERPRET": false},
	}
}

// testBaseAPIs are the methods as APIs: pallas_calls, PallasTPUTest's a
// TPU one (the class runs only on TPU, or interpreted on CPU).
func testBaseAPIs() []API {
	return []API{
		{Name: pallasTestUtil + "PallasTest.pallas_call", Role: RolePallasCall},
		{Name: pallasTestUtil + "PallasTPUTest.pallas_call", Role: RolePallasCall, Backend: BackendTPU},
	}
}

// LookupTestBaseMethod is method name of the JAX test base class base (a
// qualified name), if the table knows it.
func LookupTestBaseMethod(base, name string) (TestBaseMethod, bool) {
	m, ok := testBaseMethods[base+"."+name]
	return m, ok
}
