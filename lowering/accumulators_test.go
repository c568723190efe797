package lowering

import "testing"

// TestAccEmptyRefOutcome follows alloc_accumulator's order: the chip, the
// bare asserts, then check_accumulator_ref's dtype check.
func TestAccEmptyRefOutcome(t *testing.T) {
	v := V(0, 12, 0)
	for _, c := range []struct {
		ref       AccRef
		chip      string
		fails     bool
		err, want string
	}{
		{AccRef{Shape: []int{8, 256}, Dtype: "float32", MXU: 0}, "", false, "", ""},
		{AccRef{Shape: []int{256}, Dtype: "float32", MXU: 0}, "", true, "", ""},
		{AccRef{Shape: []int{8, 256}, Dtype: "bfloat16", MXU: 0}, "", true, "", ""},
		{AccRef{Shape: []int{256}, Dtype: "bfloat16", MXU: 0}, "v6e", true, "ValueError", "Accumulators are not available on TPU v6e"},
		{AccRef{Shape: []int{256}, Dtype: "bfloat16", MXU: 0}, "7x", true, "AssertionError", ""},
		{AccRef{Shape: []int{8, 256}, Dtype: "float32", MXU: 2}, "7x", true, "AssertionError", ""},
		{AccRef{Shape: []int{8, 128}, Dtype: "float32", MXU: 0}, "7x", true, "AssertionError", ""},
		{AccRef{Shape: []int{8, 256}, Dtype: "bfloat16", MXU: 1}, "7x", true, "ValueError", "Acc ref dtype must be float32 or int32, got bfloat16"},
		{AccRef{Shape: []int{0, 256}, Dtype: "float32", MXU: 1}, "7x", true, "ValueError", "The product of the major dimensions must be a multiple of 8, but got 0"},
		{AccRef{Shape: []int{8 * 129, 256}, Dtype: "bfloat16", MXU: 0}, "7x", false, "", ""}, // overflow: offset-dependent
		{AccRef{Shape: []int{16, 256}, Dtype: "int32", MXU: 1}, "7x", false, "", ""},
	} {
		o, bad := AccEmptyRefOutcome(v, c.ref, c.chip)
		if bad != c.fails || o.Error != c.err || o.Message != c.want || bad && o.Layer != LayerPallasLowering {
			t.Errorf("%+v on %q: got %v %+v, want %v %s %q", c.ref, c.chip, bad, o, c.fails, c.err, c.want)
		}
	}
	if _, bad := AccEmptyRefOutcome(V(0, 10, 2), AccRef{Shape: []int{256}, Dtype: "float32"}, ""); bad {
		t.Error("0.10.2 has no pltpu.ACC")
	}
}

func TestAccMeshOutcome(t *testing.T) {
	for _, c := range []struct {
		mxu        int
		repr, want string
	}{
		{0, "TensorCoreMesh(axis_name='core', num_cores=2)", "Memory space ACC(mxu_id=0) is not supported by mesh TensorCoreMesh(axis_name='core', num_cores=2)"},
		{-1, "", "Memory space ACC(mxu_id={mxu_id}) is not supported by mesh {mesh}"},
	} {
		if o := AccMeshOutcome(c.mxu, c.repr); o.Message != c.want || o.Error != "ValueError" || o.Layer != LayerTrace {
			t.Errorf("AccMeshOutcome(%d, %q) = %+v, want %q", c.mxu, c.repr, o, c.want)
		}
	}
}
