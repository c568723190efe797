package lowering

// KeywordChange is a keyword argument that was renamed or removed. A call
// that passes it fails with TypeError once Removed <= version, which is why
// PAL301 reports keywords as well as attributes.
type KeywordChange struct {
	Callee     string  // canonical qualified name of the callee
	Keyword    string  // the old keyword
	Since      Version // zero: since forever
	Deprecated Version // zero: never deprecated (some keywords vanished without warning)
	Removed    Version // zero: still accepted
	ReplacedBy string  // new keyword name, or "" when there is none
	Note       string  // one line shown in messages
}

// StatusAt reports whether the keyword is accepted, deprecated or gone at v.
func (k KeywordChange) StatusAt(v Version) Status {
	return statusAt(v, k.Since, k.Deprecated, k.Removed)
}

// keywordChanges was checked against the callee signatures at each release
// tag (jax/experimental/shard_map.py, jax/_src/pallas/pallas_call.py,
// jax/_src/pallas/helpers.py, jax/_src/pallas/mosaic_gpu/core.py,
// jax/_src/core.py ShapeDtypeStruct). Two dates differ from the project's
// notes: pl.kernel's rename landed in 0.10.1, not 0.10.0 (commit "Refactor
// pl.kernel to use out_type and scratch_types" is between the two tags),
// and the old pl.kernel keywords vanished with no deprecation period.
var keywordChanges = []KeywordChange{
	{Callee: pltpu + "create_tensorcore_mesh", Keyword: "num_cores", Since: V(0, 6, 1),
		Note: "num_cores= is accepted from 0.6.1; before, the mesh spans devices[0].num_cores cores"},
	{Callee: "jax.experimental.shard_map.shard_map", Keyword: "check_rep",
		Deprecated: V(0, 8, 0), ReplacedBy: "check_vma",
		Note: "jax.experimental.shard_map is deprecated since 0.8.0; jax.shard_map spells check_rep as check_vma"},
	{Callee: "jax.experimental.shard_map.shard_map", Keyword: "auto",
		Removed: V(0, 8, 0), ReplacedBy: "axis_names",
		Note: "auto= was removed in 0.8.0; jax.shard_map(axis_names=) lists the manual axes, the complement of auto"},
	{Callee: pl + "pallas_call", Keyword: "mosaic_params",
		Removed: V(0, 4, 27), ReplacedBy: "compiler_params",
		Note: "mosaic_params= was removed in 0.4.27; pass compiler_params (pltpu.CompilerParams on current JAX)"},
	{Callee: pl + "pallas_call", Keyword: "backend",
		Removed: V(0, 9, 1),
		Note:    "backend= was removed in 0.9.1; the compiler_params type selects the backend"},
	{Callee: pl + "kernel", Keyword: "out_shape",
		Removed: V(0, 10, 1), ReplacedBy: "out_type",
		Note: "pl.kernel(out_shape=) became out_type= in 0.10.1"},
	{Callee: pl + "kernel", Keyword: "scratch_shapes",
		Removed: V(0, 10, 1), ReplacedBy: "scratch_types",
		Note: "pl.kernel(scratch_shapes=) became scratch_types= in 0.10.1"},
	{Callee: pl + "kernel", Keyword: "out_type", Since: V(0, 10, 1),
		Note: "pl.kernel(out_type=) replaced out_shape= in 0.10.1; older releases take out_shape="},
	{Callee: pl + "kernel", Keyword: "scratch_types", Since: V(0, 10, 1),
		Note: "pl.kernel(scratch_types=) replaced scratch_shapes= in 0.10.1; older releases take scratch_shapes="},
	{Callee: plgpu + "kernel", Keyword: "out_shape",
		Deprecated: V(0, 10, 2), ReplacedBy: "out_type",
		Note: "plgpu.kernel(out_shape=) is a deprecated alias of out_type= since 0.10.2"},
	{Callee: plgpu + "kernel", Keyword: "scratch_shapes",
		Deprecated: V(0, 10, 2), ReplacedBy: "scratch_types",
		Note: "plgpu.kernel(scratch_shapes=) is a deprecated alias of scratch_types= since 0.10.2"},
	{Callee: pltpu + "CompilerParams", Keyword: "allow_collective_id_without_custom_barrier", Since: V(0, 7, 2),
		Note: "pltpu.CompilerParams(allow_collective_id_without_custom_barrier=) was added in 0.7.2"},
	{Callee: pl + "pallas_call", Keyword: "scratch_shapes", Since: V(0, 4, 34),
		Note: "pallas_call(scratch_shapes=) was added in 0.4.34; older releases take scratch_shapes only in a grid spec (pltpu.PrefetchScalarGridSpec)"},
	{Callee: "jax.ShapeDtypeStruct", Keyword: "vma",
		Since: V(0, 6, 2), Removed: V(0, 10, 0), ReplacedBy: "manual_axis_type",
		Note: "vma= was replaced in 0.10.0 by manual_axis_type=jax.sharding.ManualAxisType(varying=...)"},
}

// KeywordChanges returns the keyword changes of one callee, in table order.
// The callee may be any spelling Lookup accepts.
func KeywordChanges(callee string) []KeywordChange {
	if canon, ok := aliases[callee]; ok {
		callee = canon
	}
	var out []KeywordChange
	for _, k := range keywordChanges {
		if k.Callee == callee {
			out = append(out, k)
		}
	}
	return out
}

// KeywordChangeFor finds the change for one keyword of one callee, the
// question the analysis asks for each keyword argument it sees.
func KeywordChangeFor(callee, keyword string) (KeywordChange, bool) {
	if canon, ok := aliases[callee]; ok {
		callee = canon
	}
	k, ok := keywordIndex[calleeKeyword{callee, keyword}]
	return k, ok
}

type calleeKeyword struct{ callee, keyword string }

// keywordIndex answers KeywordChangeFor, which runs once per keyword
// argument in the workspace; the first entry of the table wins.
var keywordIndex = func() map[calleeKeyword]KeywordChange {
	m := map[calleeKeyword]KeywordChange{}
	for _, k := range keywordChanges {
		key := calleeKeyword{k.Callee, k.Keyword}
		if _, dup := m[key]; !dup {
			m[key] = k
		}
	}
	return m
}()

// AllKeywordChanges returns every keyword change (for docs and tests).
func AllKeywordChanges() []KeywordChange {
	return append([]KeywordChange(nil), keywordChanges...)
}
