package lowering

// The out_shape check of a kernel traced under jax.shard_map with
// check_vma=True (PAL105), read from _convert_out_shape_to_aval
// (jax/_src/pallas/pallas_call.py 0.6.2-0.9.0, jax/_src/pallas/core.py
// 0.9.1+) at the release tags, and held against the oracle's records.
//
// The check reads config._check_vma, the state the innermost shard_map
// sets while its body is traced (jit or eager): jax.shard_map(check_vma=,
// default True), jax.experimental.shard_map.shard_map(check_rep=, default
// True, passed on as check_vma since 0.6.2) and jax.smap (always True).
// jax.pmap, the jit+shard_map of 0.8.0 and later, passes check_vma=False
// (jax/_src/shard_map.py 0.8.x, jax/_src/pmap.py 0.9.0+), and a Pallas
// kernel body is traced with it off. A jax.ShapeDtypeStruct in out_shape
// whose vma (manual_axis_type since 0.10.0) is None raises; an array, a
// ShapedArray or a struct that gives the keyword does not.

// The kernel entries' qualified names.
const (
	PallasCallQual  = pl + "pallas_call"
	KernelEntryQual = pl + "kernel"
)

// OutVMACheckSince is the first release with the check (pallas_call).
var OutVMACheckSince = V(0, 6, 2)

// KernelOutVMACheckSince is the first release whose pl.kernel converts
// out_type with the same function: pl.kernel became a wrapper of mpmd_map
// in 0.10.1 (before, core_map took the shapes through lax.empty and nothing
// checked them). mpmd_map converts them when pl.kernel(...) is called, not
// when the kernel it returns is.
var KernelOutVMACheckSince = V(0, 10, 1)

// manualAxisTypeSince is when ShapeDtypeStruct's vma= became
// manual_axis_type= (keywordChanges has the rename), and the message with it.
var manualAxisTypeSince = V(0, 10, 0)

// OutVMAKeyword is the ShapeDtypeStruct keyword that says how an output
// varies across the manual mesh axes at v: "vma" or "manual_axis_type".
func OutVMAKeyword(v Version) string {
	if v.AtLeast(manualAxisTypeSince) {
		return "manual_axis_type"
	}
	return "vma"
}

// OutVMAChecked reports whether the kernel entry api (a qualified name)
// checks its output structs at v. plgpu.kernel is not judged: it turns
// check_vma off around pl.kernel (0.12) or builds outputs through core_map.
func OutVMAChecked(v Version, api string) bool {
	switch api {
	case PallasCallQual:
		return v.AtLeast(OutVMACheckSince)
	case KernelEntryQual:
		return v.AtLeast(KernelOutVMACheckSince)
	}
	return false
}

// OutVMAMissing is the trace-time error of a ShapeDtypeStruct output with
// no vma (manual_axis_type) under check_vma=True, worded as v words it.
func OutVMAMissing(v Version) Outcome {
	kw := OutVMAKeyword(v)
	msg := "When `check_vma=True` on `jax.shard_map`, `" + kw + "` on `jax.ShapeDtypeStruct` must not be `None`. " +
		"Please specify how the output should be varying across mesh axes using the `" + kw + "` argument of " +
		"`jax.ShapeDtypeStruct` or set `check_vma=False` on `jax.shard_map`."
	where := "jax/_src/pallas/core.py (_convert_out_shape_to_aval)"
	if v.Less(V(0, 9, 1)) {
		where = "jax/_src/pallas/pallas_call.py (_convert_out_shape_to_aval)"
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Message: msg, Where: where}
}

// RepRuleMissingUntil is the first release whose shard_map check does not
// reject pallas_call: through 0.6.0, jax.experimental.shard_map.shard_map
// with check_rep=True (the default) checks the replication of every
// primitive of the body, and pallas_call has no rule
// (_rule_missing, jax/experimental/shard_map.py). 0.6.1 moved shard_map to
// jax/_src/shard_map.py and checks vma instead, and the out_shape check
// above arrived in 0.6.2.
var RepRuleMissingUntil = V(0, 6, 1)

// RepRuleMissing is the error of a pallas_call in a shard_map body with
// check_rep=True before 0.6.1 (staged or eager: both check every primitive); ok is false
// from 0.6.1 on. The issue link moved from google/jax to jax-ml/jax in
// 0.4.34.
func RepRuleMissing(v Version) (Outcome, bool) {
	if !v.Less(RepRuleMissingUntil) {
		return Outcome{}, false
	}
	repo := "jax-ml/jax"
	if v.Less(V(0, 4, 34)) {
		repo = "google/jax"
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "NotImplementedError",
		Message: "No replication rule for pallas_call. As a workaround, pass the `check_rep=False` argument to " +
			"`shard_map`. To get this fixed, open an issue at https://github.com/" + repo + "/issues",
		Where: "jax/experimental/shard_map.py (_rule_missing)"}, true
}
