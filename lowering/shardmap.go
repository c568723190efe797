package lowering

// The checks shard_map makes when it is applied, before it traces its
// body: plain JAX errors that a Pallas program meets before its kernels
// matter (issue 17: the oracle records them on the generated corpus).
// Read from jax/_src/shard_map.py (_shmap_checks, _shard_map's wrapped),
// jax/experimental/shard_map.py and jax/_src/sharding_impls.py
// (make_mesh) at the release tags, and run on the oracle's venvs.

const whereShardMap = "jax/_src/shard_map.py"

// Since when each check holds.
var (
	// ShardMapMeshCheckSince: _shmap_checks raises when mesh= is given
	// and the context's abstract mesh is not empty and differs from
	// mesh.abstract_mesh. jax.shard_map (new in 0.6.1) has always made
	// it; jax.experimental.shard_map.shard_map skipped it
	// (_skip_mesh_check=True) until 0.8.0, when it became a thin wrapper.
	ShardMapMeshCheckSince             = V(0, 6, 1)
	ExperimentalShardMapMeshCheckSince = V(0, 8, 0)
	// EagerPartialShardMapSince: before it, a shard_map applied eagerly
	// (not under jit) that leaves some mesh axes automatic raises a bare
	// NotImplementedError (_shard_map_impl) before running its body.
	EagerPartialShardMapSince = V(0, 7, 0)
	// MakeMeshExplicitSince: jax.make_mesh without axis_types makes every
	// axis Explicit (0.8.x warned that the default would change).
	MakeMeshExplicitSince = V(0, 9, 0)
	// InSpecsCheckSince: with every manual axis Explicit, shard_map
	// compares each in_specs entry (normalized to the argument's rank)
	// with the argument's sharding spec and raises when they differ. Up
	// to 0.11 only a shard_map manual over every mesh axis checks;
	// 0.12.0.1 checks partial-manual ones too (against the argument's
	// spec restricted to the manual axes).
	InSpecsCheckSince        = V(0, 9, 1)
	InSpecsPartialCheckSince = V(0, 12, 0)
)

// NestedShardMapMesh is the error of a shard_map given a concrete mesh
// (jax.sharding.Mesh, jax.make_mesh) inside the body of another
// shard_map: the context mesh there is the outer one's abstract mesh with
// its manual axes typed Manual, which no concrete mesh equals. api is the
// inner shard_map's qualified name. Mesh omitted (the context mesh is
// used) or jax.sharding.get_abstract_mesh() passes; mesh.abstract_mesh
// fails too. Both meshes are printed at run time. outerEagerPartial: the
// outer shard_map is applied eagerly and may be partial-manual, whose
// error comes first before EagerPartialShardMapSince (not predicted).
func NestedShardMapMesh(v Version, api string, outerEagerPartial bool) Outcome {
	since := ShardMapMeshCheckSince
	if api == "jax.experimental.shard_map.shard_map" {
		since = ExperimentalShardMapMeshCheckSince
	} else if api != "jax.shard_map" {
		return Outcome{}
	}
	if v.Less(since) || outerEagerPartial && v.Less(EagerPartialShardMapSince) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: whereShardMap,
		Message: "The context mesh {context_mesh} should match the mesh passed to shard_map {mesh}"}
}

// EagerPartialShardMap is what applying a shard_map that leaves mesh axes
// automatic eagerly (outside jit) raises at v: before
// EagerPartialShardMapSince its eager implementation (_shard_map_impl)
// raises a bare NotImplementedError, before tracing the body.
func EagerPartialShardMap(v Version, api string) Outcome {
	if api != "jax.shard_map" && api != "jax.experimental.shard_map.shard_map" || !v.Less(EagerPartialShardMapSince) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "NotImplementedError", Message: "", Where: whereShardMap}
}

// SpecNamesAutomaticAxis is what a shard_map whose in_specs ("in") or
// out_specs ("out") names an axis that axis_names leaves automatic raises
// at v, while tracing, before its body runs (_check_specs): jax.shard_map
// always; jax.experimental.shard_map.shard_map from ExperimentalShardMapMeshCheckSince,
// a wrapper of it (before, auto= is checked the other way round).
func SpecNamesAutomaticAxis(v Version, api, arg, axis string) Outcome {
	if api == "jax.experimental.shard_map.shard_map" && v.Less(ExperimentalShardMapMeshCheckSince) || api != "jax.shard_map" && api != "jax.experimental.shard_map.shard_map" {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: whereShardMap,
		Message: "shard_map " + arg + "_specs argument must refer to an axis marked as manual ({manual_axes}), but:\n\n" +
			"  " + arg + "_specs{key} refers to '" + axis + "'{more}\n\nCheck the " + arg + "_specs values passed to shard_map."}
}

// MeshAxesExplicit reports whether a jax.make_mesh mesh has Explicit axes
// at v: defaulted (no axis_types) from MakeMeshExplicitSince, or given
// as Explicit.
func MeshAxesExplicit(v Version, defaulted, givenExplicit bool) bool {
	return givenExplicit || defaulted && !v.Less(MakeMeshExplicitSince)
}

// ExplicitInSpecsMessage is the in_specs check's ValueError. spec and
// input are the PartitionSpecs as JAX prints them (the in_specs entry
// normalized to the argument's rank, and the argument's), "" for a
// placeholder; the argument's type is printed at run time.
func ExplicitInSpecsMessage(spec, input string) string {
	if spec == "" {
		spec = "{spec}"
	}
	if input == "" {
		input = "{input spec}"
	}
	return "in_specs passed to shard_map: " + spec + " does not match the specs of the input: " + input +
		" for arg: {aval}. `in_specs` is an optional argument so you can omit specifying it and shard_map " +
		"will infer the in_specs from the arguments. If you want to reshard your inputs, you can use " +
		"`jax.reshard` on the arguments and then pass those args to shard_map."
}

// ExplicitInSpecs is the outcome of applying jax.shard_map over a mesh
// whose axes are all Explicit to an argument whose sharding spec differs
// from its in_specs entry; fullManual says the shard_map is manual over
// every mesh axis. jax.experimental.shard_map.shard_map is the same
// function from 0.8.0 on (always manual over every axis).
func ExplicitInSpecs(v Version, api string, fullManual bool, spec, input string) Outcome {
	if api != "jax.shard_map" && api != "jax.experimental.shard_map.shard_map" ||
		v.Less(InSpecsCheckSince) || !fullManual && v.Less(InSpecsPartialCheckSince) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: whereShardMap,
		Message: ExplicitInSpecsMessage(spec, input)}
}
