package lowering

import "testing"

func TestMissingError(t *testing.T) {
	tests := []struct {
		kind          MissingKind
		qual, keyword string
		typ, msg      string
	}{
		{MissingAttribute, "jax.shard_map", "", "AttributeError", "module 'jax' has no attribute 'shard_map'"},
		{MissingAttribute, pltpu + "CompilerParams", "", "AttributeError", "module 'jax.experimental.pallas.tpu' has no attribute 'CompilerParams'"},
		{MissingFromImport, pl + "tpu_sc", "", "ImportError", "cannot import name 'tpu_sc' from 'jax.experimental.pallas' ({path})"},
		{MissingFromImport, plsc + "VectorSubcoreMesh", "", "ImportError", "cannot import name 'VectorSubcoreMesh' from 'jax.experimental.pallas.tpu_sc' ({path})"},
		{MissingKeyword, pl + "pallas_call", "scratch_shapes", "TypeError", "pallas_call() got an unexpected keyword argument 'scratch_shapes'"},
		{MissingKeyword, "jax.experimental.shard_map.shard_map", "auto", "TypeError", "shard_map() got an unexpected keyword argument 'auto'"},
		{MissingKeyword, pltpu + "CompilerParams", "allow_collective_id_without_custom_barrier", "TypeError", "CompilerParams.__init__() got an unexpected keyword argument 'allow_collective_id_without_custom_barrier'"},
		// The owner is a class, or the keyword belongs to a class: not worded.
		{MissingAttribute, "jax.sharding.AxisType.Explicit", "", "", ""},
		{MissingKeyword, "jax.ShapeDtypeStruct", "vma", "TypeError", "ShapeDtypeStruct.__init__() got an unexpected keyword argument 'vma'"},
		{MissingKeyword, "jax.sharding.AbstractMesh", "axis_types", "", ""},
		{MissingAttribute, "jax", "", "", ""},
	}
	for _, tt := range tests {
		typ, msg, ok := MissingError(tt.kind, tt.qual, tt.keyword)
		if ok != (tt.typ != "") || typ != tt.typ || msg != tt.msg {
			t.Errorf("MissingError(%d, %q, %q) = %q, %q, %v; want %q, %q", tt.kind, tt.qual, tt.keyword, typ, msg, ok, tt.typ, tt.msg)
		}
	}
}

func TestModules(t *testing.T) {
	if m, ok := MissingModuleAt(plsc+"VectorSubcoreMesh", MustParse("0.6.2")); !ok || m.Name != pl+"tpu_sc" {
		t.Errorf("tpu_sc names at 0.6.2: %v %v", m, ok)
	}
	if _, ok := MissingModuleAt(pl+"tpu_sc", MustParse("0.7.2")); ok {
		t.Error("tpu_sc exists at 0.7.2")
	}
	if _, ok := MissingModuleAt(pl+"tpu_scx", MustParse("0.4.30")); ok {
		t.Error("a prefix that is not a module boundary matched")
	}
	for _, m := range Modules() {
		if m.Since.IsZero() {
			t.Errorf("%s: a module entry needs Since", m.Name)
		}
	}
}

// TestHostRemoval: the 0.10.0/0.10.1 wheels export pltpu.HOST plainly,
// 0.10.2 deprecates it (the oracle's venv has it), 0.11.2 raises.
func TestHostRemoval(t *testing.T) {
	a, ok := Lookup(pltpu + "HOST")
	if !ok {
		t.Fatal("pltpu.HOST missing")
	}
	for vs, want := range map[string]Status{"0.10.1": StatusOK, "0.10.2": StatusDeprecated, "0.11": StatusDeprecated, "0.11.2": StatusRemoved} {
		if got := a.StatusAt(MustParse(vs)); got != want {
			t.Errorf("pltpu.HOST at %s: %v, want %v", vs, got, want)
		}
	}
}

func TestRemovedError(t *testing.T) {
	a, _ := Lookup(pltpu + "DeviceIdType")
	if typ, msg, ok := RemovedError(a, MustParse("0.11.2")); !ok || typ != "AttributeError" ||
		msg != "pltpu.DeviceIdType was deprecated in JAX v0.10.0, and removed in JAX v0.11.0. Use pl.DeviceIdType instead." {
		t.Errorf("0.11.2: %q %q %v", typ, msg, ok)
	}
	if _, msg, ok := RemovedError(a, MustParse("0.12.0.1")); !ok || msg != "module 'jax.experimental.pallas.tpu' has no attribute 'DeviceIdType'" {
		t.Errorf("0.12: %q %v", msg, ok)
	}
	if _, _, ok := RemovedError(a, MustParse("0.10.2")); ok {
		t.Error("0.10.2: not removed yet")
	}
	b, _ := Lookup(pltpu + "TPUCompilerParams")
	if _, _, ok := RemovedError(b, MustParse("0.8.3")); ok {
		t.Error("TPUCompilerParams: wording not recorded, want no error")
	}
}
