package lowering

import "testing"

// The wordings the oracle recorded for collectives on an unbound axis
// (oracle/cases/gen/local-{psum,ppermute,all_gather}_before-*,
// axis_size_body-*, axis_index_body-*).
func TestUnboundCollective(t *testing.T) {
	const old = "unbound axis name: x. The following axis names (e.g. defined by pmap) are available to collective operations: []"
	for _, tc := range []struct {
		v         Version
		api       string
		eager     bool
		typ, want string
	}{
		{V(0, 4, 29), "jax.lax.psum", true, "NameError", old},
		{V(0, 4, 33), "jax.lax.ppermute", true, "NameError", old},
		{V(0, 4, 38), "jax.lax.ppermute", true, "NotImplementedError", "Evaluation rule for 'ppermute' not implemented"},
		{V(0, 4, 38), "jax.lax.ppermute", false, "NameError", "unbound axis name: x"},
		{V(0, 6, 2), "jax.lax.psum", false, "NameError", "unbound axis name: x"},
		{V(0, 7, 2), "jax.lax.psum", true, "NameError", "unbound axis name: x"},
		{V(0, 7, 2), "jax.lax.psum", false, "NameError", "Found an unbound axis name: x. To fix this, please call psum under `jax.shard_map`."},
		{V(0, 11, 2), "jax.lax.pmean", false, "NameError", "Found an unbound axis name: x. To fix this, please call psum under `jax.shard_map`."},
		{V(0, 12, 0), "jax.lax.ppermute", false, "NameError", "Found an unbound axis name: x. To fix this, please call ppermute under `jax.shard_map`."},
		{V(0, 12, 0), "jax.lax.ppermute", true, "NotImplementedError", "Evaluation rule for 'ppermute' not implemented"},
		{V(0, 10, 2), "jax.lax.all_gather", false, "NameError", "unbound axis name: x"},
		{V(0, 10, 2), "jax.lax.axis_size", false, "NameError", "unbound axis name: x"},
		{V(0, 10, 2), "jax.lax.axis_index", true, "NameError", "Found an unbound axis name: x. To fix this, please call axis_index under `jax.shard_map`."},
	} {
		o := UnboundCollective(tc.v, tc.api, tc.eager, "x")
		if !o.Fails || o.Error != tc.typ || o.Message != tc.want {
			t.Errorf("%s %s eager=%v: %s: %s, want %s: %s", tc.v, tc.api, tc.eager, o.Error, o.Message, tc.typ, tc.want)
		}
	}
	if o := UnboundCollective(V(0, 11, 0), "jax.numpy.sum", false, "x"); o.Fails {
		t.Errorf("not a collective: %+v", o)
	}
}

// The oracle's analysis/rules/testdata/PAL104/partial_shard_map_axis.
func TestPartialShardMapCollective(t *testing.T) {
	for _, tc := range []struct {
		v         Version
		typ, want string
	}{
		{V(0, 4, 29), "NotImplementedError", "Collectives in manually partitioned computations are only supported when all mesh axes are partitioned manually (no partial automatic sharding). Make sure that you mention all mesh axes in axis_resources!"},
		{V(0, 4, 38), "XlaRuntimeError", "INVALID_ARGUMENT: Manual all-reduce across devices that belong to different manual subgroups: {hlo}"},
		{V(0, 5, 3), "NameError", "unbound axis name: y"},
		{V(0, 7, 2), "NameError", "Found an unbound axis name: y. To fix this, please call psum under `jax.shard_map`."},
	} {
		o := PartialShardMapCollective(tc.v, "jax.lax.psum", "y")
		if !o.Fails || o.Error != tc.typ || o.Message != tc.want {
			t.Errorf("%s: %s: %s, want %s: %s", tc.v, o.Error, o.Message, tc.typ, tc.want)
		}
	}
	if o := PartialShardMapCollective(V(0, 4, 38), "jax.lax.all_gather", "y"); o.Fails {
		t.Errorf("all_gather before 0.5: %+v, want no prediction", o)
	}
}

// The oracle's gen/{copy_dict,signal_dict,core_device_ids,core_only_ids}-
// direct-shmap_partial-*: a dict device id in a partial shard_map.
func TestPartialShardMapDictID(t *testing.T) {
	partial := Context{Kind: CtxShardMapPartial}
	dict := Effects{DictDeviceID: true, AnyDictID: true, RemoteDMA: true}
	coreOnly := Effects{Local: true, AnyDictID: true, MeshKernel: true}
	want := "Found an unbound axis name: {name}. To fix this, please call axis_index under `jax.shard_map`."
	for _, eff := range []Effects{dict, coreOnly} {
		if o := Predict(V(0, 10, 2), partial, eff); o.Error != "NameError" || o.Message != want || o.Layer != LayerPallasLowering {
			t.Errorf("0.10.2 %+v: %+v", eff, o)
		}
	}
	if o := Predict(V(0, 9, 2), partial, dict); o.Error != "NotImplementedError" {
		t.Errorf("0.9.2: %+v, want the partitioning error", o)
	}
}
