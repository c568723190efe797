package lowering

import "testing"

// The wordings below are the ones the oracle recorded (oracle/results).

func TestDeviceIDCount(t *testing.T) {
	for _, c := range []struct {
		v    Version
		n, k int
		want string
	}{
		{V(0, 11, 2), 1, 2, "Number of device ids must match the number of mesh axes, but got 1 ids for a 2D mesh."},
		{V(0, 8, 3), 3, 2, "Number of device ids must match the number of mesh axes, but got 3 ids for a 2D mesh."},
		{V(0, 7, 2), 1, 2, "safe_zip() argument 2 is longer than argument 1"},
		{V(0, 6, 2), 2, 1, "safe_zip() argument 2 is shorter than argument 1"},
	} {
		o, ok := DeviceIDCount(c.v, c.n, c.k)
		if !ok || o.Error != "ValueError" || o.Message != c.want {
			t.Errorf("DeviceIDCount(%s, %d, %d) = %+v, %v; want %q", c.v, c.n, c.k, o, ok, c.want)
		}
	}
	if _, ok := UnrecognizedDeviceAxes(V(0, 7, 0)); ok {
		t.Error("dict ids are flattened before 0.7.1: no Unrecognized axes error")
	}
}

func TestParamsPlatformOutcome(t *testing.T) {
	for _, c := range []struct {
		v          Version
		qual       string
		fails      bool
		err, start string
	}{
		{V(0, 7, 2), TritonParamsQual, false, "", ""},
		{V(0, 8, 3), GPUParamsQual, true, "ValueError", "Only mosaic backend supported for TPU"},
		{V(0, 9, 2), TritonParamsQual, true, "AssertionError", ""},
		{V(0, 10, 2), TritonParamsQual, true, "AssertionError", ""},
		{V(0, 11, 2), TritonParamsQual, true, "ValueError", "Compiler params for platform gpu cannot be used for tpu lowering."},
		{V(0, 12, 0), GPUParamsQual, true, "AssertionError", ""},
	} {
		o, ok := ParamsPlatformOutcome(c.v, c.qual, BackendTPU)
		if ok != c.fails || o.Error != c.err || o.Message != c.start {
			t.Errorf("ParamsPlatformOutcome(%s, %s) = %+v, %v", c.v, c.qual, o, ok)
		}
	}
}

func TestAccRefOutcome(t *testing.T) {
	v := V(0, 12, 0)
	for _, c := range []struct {
		ref  AccRef
		chip string
		want string
	}{
		{AccRef{Shape: []int{256}, Dtype: "float32", MXU: 0}, "", "Acc ref must be at least 2D, got shape (256,)"},
		{AccRef{Shape: []int{}, Dtype: "float32", MXU: 0}, "", "Acc ref must be at least 2D, got shape ()"},
		{AccRef{Shape: []int{8, 256}, Dtype: "bfloat16", DtypeRepr: "<class 'jax.numpy.bfloat16'>", MXU: 0}, "",
			"Acc ref dtype must be float32 or int32, got <class 'jax.numpy.bfloat16'>"},
		{AccRef{Shape: []int{8, 256}, Dtype: "float32", MXU: 0}, "", ""},
		{AccRef{Shape: []int{8, 256}, Dtype: "float32", MXU: 0}, "v6e", "Accumulators are not available on TPU v6e"},
		{AccRef{Shape: []int{8, 256}, Dtype: "float32", MXU: 2}, "7x", "mxu_id must be in [0, 2), got mxu_id=2"},
		{AccRef{Shape: []int{8, 128}, Dtype: "int32", MXU: 0}, "7x", "The minor dimension size of an accumulator ref must be 256 but got 128"},
		{AccRef{Shape: []int{2, 4, 256}, Dtype: "int32", MXU: 1}, "8t", "The product of the major dimensions must be a multiple of 16, but got 8"},
		{AccRef{Shape: []int{16, 256}, Dtype: "int32", MXU: 1}, "8t", ""},
	} {
		o, bad := AccRefOutcome(v, c.ref, c.chip)
		if bad != (c.want != "") || o.Message != c.want {
			t.Errorf("AccRefOutcome(%+v, %q) = %q, %v; want %q", c.ref, c.chip, o.Message, bad, c.want)
		}
	}
	if _, bad := AccRefOutcome(V(0, 10, 2), AccRef{Shape: []int{256}, Dtype: "float32"}, ""); bad {
		t.Error("no pltpu.ACC in 0.10")
	}
}

// NoMeshDeviceID is Predict's outcome in a full shard_map for a MESH id in
// a kernel that gives Pallas no reason to build the mesh, and absent once
// the kernel has lax.axis_index or the id is LOGICAL.
func TestNoMeshDeviceID(t *testing.T) {
	full := Context{Kind: CtxShardMapFull}
	mesh := Effects{RemoteDMA: true, MeshIntTupleID: true, DeviceIDs: 1}
	for _, v := range []Version{V(0, 4, 29), V(0, 6, 2), V(0, 7, 2), V(0, 8, 1), V(0, 8, 3), V(0, 12, 0)} {
		o, ok := NoMeshDeviceID(v, mesh)
		if !ok || !o.Fails || o != Predict(v, full, mesh) {
			t.Errorf("%s: NoMeshDeviceID = %+v, %v; Predict = %+v", v, o, ok, Predict(v, full, mesh))
		}
	}
	if o, _ := NoMeshDeviceID(V(0, 12, 0), mesh); o.Message != "Number of device ids must match the number of mesh axes, but got 1 ids for a 0D mesh." {
		t.Errorf("0.12 message %q", o.Message)
	}
	withAxis := mesh
	withAxis.AxisIndexDeviceAxis = true
	logical := Effects{RemoteDMA: true, LogicalOnly: true}
	for _, e := range []Effects{withAxis, logical, {Local: true}} {
		if _, ok := NoMeshDeviceID(V(0, 12, 0), e); ok {
			t.Errorf("NoMeshDeviceID(%+v) reports", e)
		}
	}
}
