package lowering

import "testing"

func TestKeywordChanges(t *testing.T) {
	tests := []struct {
		callee, keyword, replacedBy string
		at                          map[string]Status
	}{
		{"jax.experimental.shard_map.shard_map", "check_rep", "check_vma",
			map[string]Status{"0.4.30": ok, "0.7.2": ok, "0.8.0": dep, "0.11": dep}},
		{"jax.experimental.shard_map.shard_map", "auto", "axis_names",
			map[string]Status{"0.4.30": ok, "0.7.2": ok, "0.8.0rc1": ok, "0.8.0": rem, "0.11": rem}},
		{pl + "pallas_call", "backend", "",
			map[string]Status{"0.8.3": ok, "0.9.0": ok, "0.9.1": rem}},
		{pl + "pallas_call", "mosaic_params", "compiler_params",
			map[string]Status{"0.4.26": ok, "0.4.27": rem}},
		{pl + "kernel", "out_shape", "out_type",
			map[string]Status{"0.8.1": ok, "0.10.0": ok, "0.10.1": rem, "0.11": rem}},
		{pl + "kernel", "scratch_shapes", "scratch_types",
			map[string]Status{"0.10.0": ok, "0.10.1": rem}},
		{pl + "kernel", "out_type", "",
			map[string]Status{"0.9.2": nyt, "0.10.0": nyt, "0.10.1": ok, "0.11": ok}},
		{pl + "kernel", "scratch_types", "",
			map[string]Status{"0.9.2": nyt, "0.10.1": ok}},
		{plgpu + "kernel", "out_shape", "out_type",
			map[string]Status{"0.10.1": ok, "0.10.2": dep, "0.11": dep}},
		{plgpu + "kernel", "scratch_shapes", "scratch_types",
			map[string]Status{"0.10.1": ok, "0.10.2": dep}},
		{pl + "pallas_call", "scratch_shapes", "",
			map[string]Status{"0.4.33": nyt, "0.4.34": ok, "0.11": ok}},
		{pltpu + "CompilerParams", "allow_collective_id_without_custom_barrier", "",
			map[string]Status{"0.6.2": nyt, "0.7.2": ok, "0.11": ok}},
		{pltpu + "create_tensorcore_mesh", "num_cores", "",
			map[string]Status{"0.5.3": nyt, "0.6.0": nyt, "0.6.1": ok, "0.11": ok}},
		{"jax.ShapeDtypeStruct", "vma", "manual_axis_type",
			map[string]Status{"0.6.1": nyt, "0.6.2": ok, "0.9.2": ok, "0.10.0": rem}},
	}
	for _, tt := range tests {
		k, found := KeywordChangeFor(tt.callee, tt.keyword)
		if !found {
			t.Errorf("no change for %s(%s=)", tt.callee, tt.keyword)
			continue
		}
		if k.ReplacedBy != tt.replacedBy || k.Note == "" {
			t.Errorf("%s(%s=): ReplacedBy %q (want %q), Note %q", tt.callee, tt.keyword, k.ReplacedBy, tt.replacedBy, k.Note)
		}
		for vs, want := range tt.at {
			if got := k.StatusAt(MustParse(vs)); got != want {
				t.Errorf("%s(%s=) at %s: %v, want %v", tt.callee, tt.keyword, vs, got, want)
			}
		}
	}
	if n := len(AllKeywordChanges()); n != len(tests) {
		t.Errorf("AllKeywordChanges has %d entries, the test covers %d", n, len(tests))
	}
}

func TestKeywordChangesByCallee(t *testing.T) {
	if got := KeywordChanges("jax.experimental.shard_map.shard_map"); len(got) != 2 {
		t.Errorf("experimental shard_map: %d changes, want 2", len(got))
	}
	// jax.shard_map never had check_rep or auto: passing them was always a
	// TypeError, which is not a removal.
	for _, callee := range []string{"jax.shard_map", "jax._src.shard_map.shard_map", "jax.jit"} {
		if got := KeywordChanges(callee); len(got) != 0 {
			t.Errorf("%s: %v, want none", callee, got)
		}
	}
	if got := KeywordChanges("jax._src.pallas.helpers.kernel"); len(got) != 4 {
		t.Errorf("alias of pl.kernel: %d changes, want 4", len(got))
	}
	if _, found := KeywordChangeFor(pl+"kernel", "mesh"); found {
		t.Error("pl.kernel(mesh=) reported as changed")
	}
	for _, k := range AllKeywordChanges() {
		if _, found := Lookup(k.Callee); !found {
			t.Errorf("callee %s is not in the API table", k.Callee)
		}
		checkBounds(t, k.Callee+"("+k.Keyword+"=)", k.Since, k.Deprecated, k.Removed)
	}
}
