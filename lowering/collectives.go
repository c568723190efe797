package lowering

// Collectives on named axes, and the error JAX raises when no binder
// (shard_map's manual axes, pmap's or vmap's axis_name) binds the name
// (jax-errors.md §10, checked against the oracle's psum/ppermute/
// all_gather/axis_size cases on every recorded version).

// collective is what decides the wording for one API: Prim is the name
// _check_axis_names quotes ("psum" for pmean/pmax/pmin too), SizeFirst
// says the API asks for the axis size before it binds its primitive (the
// plain "unbound axis name" text on every path), ConstEager says its eager
// call on concrete values takes psum's constant path (plain text too), and
// NoEagerRule says the primitive has no eager evaluation rule, so an eager
// call fails with NotImplementedError before any name is checked.
type collective struct {
	Prim                               string
	SizeFirst, ConstEager, NoEagerRule bool
}

var collectives = map[string]collective{
	"jax.lax.psum":         {Prim: "psum", ConstEager: true},
	"jax.lax.pmean":        {Prim: "psum", ConstEager: true},
	"jax.lax.pmax":         {Prim: "psum"},
	"jax.lax.pmin":         {Prim: "psum"},
	"jax.lax.ppermute":     {Prim: "ppermute", NoEagerRule: true},
	"jax.lax.pshuffle":     {Prim: "ppermute", NoEagerRule: true},
	"jax.lax.all_gather":   {Prim: "all_gather", SizeFirst: true},
	"jax.lax.all_to_all":   {Prim: "all_to_all", SizeFirst: true},
	"jax.lax.psum_scatter": {Prim: "reduce_scatter", SizeFirst: true},
	"jax.lax.axis_index":   {Prim: "axis_index"},
	"jax.lax.axis_size":    {Prim: "axis_size", SizeFirst: true},
}

// IsCollective reports whether the qualified name is a collective whose
// axis names must be bound.
func IsCollective(qual string) bool {
	_, ok := collectives[qual]
	return ok
}

// UnboundCollective is the first error of the collective api (qualified
// name) on the unbound axis name at v, called eagerly on concrete values
// (eager) or while tracing (under jit, shard_map, vmap, a lax control-flow
// body or a Pallas kernel). The three wordings: up to 0.4.35 core's
// axis_frame lists the bound names; from 0.4.36 (the stackless rewrite)
// the plain "unbound axis name: x"; from 0.7.0 the abstract evals of the
// primitives say "Found an unbound axis name: x. To fix this, please call
// {prim} under `jax.shard_map`." while the size-first and constant paths
// keep the plain text.
func UnboundCollective(v Version, api string, eager bool, axis string) Outcome {
	c, ok := collectives[api]
	if !ok {
		return Outcome{}
	}
	axis = placeholder(axis)
	o := Outcome{Fails: true, Layer: LayerTrace, Error: "NameError", Where: "jax/_src/lax/parallel.py"}
	switch {
	case v.Less(V(0, 4, 36)):
		o.Message, o.Where = UnboundAxisMessage(v, axis), "jax/_src/core.py"
	case eager && c.NoEagerRule:
		o.Error, o.Where = "NotImplementedError", "jax/_src/core.py"
		o.Message = "Evaluation rule for '" + c.Prim + "' not implemented"
	case v.Less(V(0, 7, 0)) || c.SizeFirst || eager && c.ConstEager:
		o.Message = "unbound axis name: " + axis
		if c.SizeFirst || eager && c.ConstEager {
			o.Where = "jax/_src/core.py"
		}
	default:
		o.Message = "Found an unbound axis name: " + axis + ". To fix this, please call " + c.Prim + " under `jax.shard_map`."
	}
	return o
}

// partialNameErrorVersion is the first version whose trace of a shard_map
// body rejects a collective over an axis the shard_map leaves automatic
// (the oracle: 0.5.3 raises the NameError, 0.4.38 does not).
var partialNameErrorVersion = V(0, 5, 0)

// PartialShardMapCollective is the first error of the collective api on
// axis, a mesh axis the enclosing shard_map leaves automatic. From 0.5 it
// is UnboundCollective's (traced). Before, nothing fails at trace time:
// 0.4.29's shard_map lowering refuses collectives under partial automatic
// sharding, and 0.4.30-0.4.38 hand XLA an all-reduce across manual
// subgroups, which it rejects at compile time (psum's family only; the
// others are not known, and get no prediction).
func PartialShardMapCollective(v Version, api string, axis string) Outcome {
	if !v.Less(partialNameErrorVersion) {
		return UnboundCollective(v, api, false, axis)
	}
	if v.Less(V(0, 4, 30)) {
		return Outcome{Fails: true, Layer: "lowering", Error: "NotImplementedError", Where: "jax/experimental/shard_map.py",
			Message: "Collectives in manually partitioned computations are only supported when all mesh axes are " +
				"partitioned manually (no partial automatic sharding). Make sure that you mention all mesh axes in axis_resources!"}
	}
	if c, ok := collectives[api]; ok && c.Prim == "psum" {
		return Outcome{Fails: true, Layer: "compile", Error: "XlaRuntimeError", Where: "XLA SPMD partitioner",
			Message: "INVALID_ARGUMENT: Manual all-reduce across devices that belong to different manual subgroups: {hlo}"}
	}
	return Outcome{}
}

// vmaPvary bounds the releases in which psum under check_vma, on a traced
// operand, fails on a summed name that the mesh of the shard_map around it
// lacks, before any axis check: from 0.6.0 core.get_vma looks the name up
// in the mesh's axis types (KeyError: 'j'); from 0.8.2 core.pvary first
// orders the names by the abstract mesh, which drops it, and trips `assert
// set(new_axes) == set(axes)` (a bare AssertionError). Read from the
// release tags; the oracle shows the KeyError on 0.6.2 and 0.7.2 and the
// AssertionError on 0.8.3 to 0.12.
var vmaPvary = [2]Version{V(0, 6, 0), V(0, 8, 2)}

// NotInMeshCollective is the first error of the collective api on axis,
// a name the mesh of the shard_map around it does not have, traced with
// check_vma on or off (vma), on a Python constant operand or not
// (constArg): psum and pmean (which sums first) on a traced operand
// under check_vma fail as vmaPvary says; everything else with the traced
// NameError of UnboundCollective.
func NotInMeshCollective(v Version, api string, vma, constArg bool, axis string) Outcome {
	if c, ok := collectives[api]; ok && c.Prim == "psum" && c.ConstEager && vma && !constArg && v.AtLeast(vmaPvary[0]) {
		if v.Less(vmaPvary[1]) {
			return Outcome{Fails: true, Layer: LayerTrace, Error: "KeyError", Message: "'" + placeholder(axis) + "'", Where: "jax/_src/core.py"}
		}
		return Outcome{Fails: true, Layer: LayerTrace, Error: "AssertionError", Where: "jax/_src/core.py"}
	}
	return UnboundCollective(v, api, false, axis)
}

// mixedVMASince is the first release whose psum asks, before anything
// else, whether the operand is in one state (varying, unreduced, reduced
// or invarying) over every axis it is given (parallel._get_from; read
// from the 0.8.1 and 0.8.2 sources, run by the oracle on 0.8.3-0.12).
var mixedVMASince = V(0, 8, 2)

// MixedVMACollective is the first error of psum (or pmean) under
// check_vma over axes that mix one the operand varies over (a manual axis
// the shard_map's in_specs shard over) with one no mesh axis has, which
// it does not vary over. Before mixedVMASince, or for other collectives,
// it is NotInMeshCollective's.
func MixedVMACollective(v Version, api string, constArg bool, axis string) Outcome {
	if c, ok := collectives[api]; ok && c.Prim == "psum" && c.ConstEager && !constArg && v.AtLeast(mixedVMASince) {
		return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: "jax/_src/lax/parallel.py",
			Message: "jax.lax.psum can only accept axis_name which corresponds to one of varying, unreduced, reduced or invarying state of the input. Got input type: {aval}, axes: {axes} and input state: {states}"}
	}
	return NotInMeshCollective(v, api, true, constArg, axis)
}

// NewRefSince is the first release that exports jax.new_ref.
var NewRefSince = V(0, 7, 2)

// EagerMemorySpaceRef is what jax.new_ref(x, memory_space=M), M not None,
// raises when it runs eagerly, outside any jit or other trace: its
// implementation rule (core._ref_impl, the same text since 0.7.1, before
// jax.new_ref was public in 0.7.2) only makes refs in the default memory.
func EagerMemorySpaceRef(v Version) Outcome {
	if v.Less(NewRefSince) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "NotImplementedError", Where: "jax/_src/core.py",
		Message: "array ref with memory space only works inside of a `jit`."}
}
