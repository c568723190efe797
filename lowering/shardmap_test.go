package lowering

import "testing"

// The version boundaries of the shard_map checks (lowering/shardmap.go),
// as the tags' sources and the oracle's venvs show them.
func TestShardMapChecks(t *testing.T) {
	for _, c := range []struct {
		v            Version
		api          string
		eagerPartial bool
		fails        bool
	}{
		{V(0, 6, 0), "jax.shard_map", false, false},
		{V(0, 6, 1), "jax.shard_map", false, true},
		{V(0, 6, 2), "jax.shard_map", true, false}, // the outer's NotImplementedError first
		{V(0, 7, 0), "jax.shard_map", true, true},
		{V(0, 7, 2), "jax.experimental.shard_map.shard_map", false, false},
		{V(0, 8, 0), "jax.experimental.shard_map.shard_map", false, true},
		{V(0, 11, 2), "jax.smap", false, false},
	} {
		if o := NestedShardMapMesh(c.v, c.api, c.eagerPartial); o.Fails != c.fails || o.Fails && o.Error != "ValueError" {
			t.Errorf("NestedShardMapMesh(%v, %s, %v) = %+v, want fails=%v", c.v, c.api, c.eagerPartial, o, c.fails)
		}
	}
	for _, c := range []struct {
		v                     Version
		defaulted, given, exp bool
	}{
		{V(0, 8, 3), true, false, false},
		{V(0, 9, 0), true, false, true},
		{V(0, 8, 3), false, true, true},
		{V(0, 11, 2), false, false, false},
	} {
		if got := MeshAxesExplicit(c.v, c.defaulted, c.given); got != c.exp {
			t.Errorf("MeshAxesExplicit(%v, %v, %v) = %v", c.v, c.defaulted, c.given, got)
		}
	}
	for _, c := range []struct {
		v     Version
		full  bool
		fails bool
	}{
		{V(0, 9, 0), true, false},
		{V(0, 9, 1), true, true},
		{V(0, 11, 2), false, false},
		{V(0, 12, 0), false, true},
	} {
		if o := ExplicitInSpecs(c.v, "jax.shard_map", c.full, "P('x', None)", "P(None, None)"); o.Fails != c.fails {
			t.Errorf("ExplicitInSpecs(%v, full=%v) fails=%v", c.v, c.full, o.Fails)
		}
	}
	want := "in_specs passed to shard_map: P('x', None) does not match the specs of the input: P(None, None) for arg: {aval}."
	if m := ExplicitInSpecsMessage("P('x', None)", "P(None, None)"); len(m) < len(want) || m[:len(want)] != want {
		t.Errorf("message %q", m)
	}
}
