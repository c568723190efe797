package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL104 reports JAX collectives on axis names that nothing around them
// binds.
var PAL104 = &analysis.Analyzer{
	Code: "PAL104", Name: "unbound-axis-name", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Collective on an axis name that no enclosing shard_map, pmap or vmap binds",
		What: "A JAX collective (lax.psum, pmean, pmax, pmin, ppermute, pshuffle, all_gather, all_to_all, " +
			"psum_scatter, axis_index, axis_size) is called with a literal axis name, on a path from a concrete " +
			"entry point (module top level, a test, a main block), where nothing binds that name: eager code and " +
			"jax.jit bind none, and neither do jax.set_mesh or `with mesh:`; a shard_map binds only the axes it " +
			"makes manual (axis_names=, or every mesh axis), and never a name its mesh lacks (reported when the " +
			"mesh's axis names are known and the name is written, as a string, nowhere else in the program: a name " +
			"the code also writes elsewhere may be an axis of the mesh another path runs with; a literal that a call on the path passes as a plain " +
			"argument, `helper(x, \"i\")`, is the name itself and does not count); vmap binds its axis_name and spmd_axis_name. pmap, " +
			"xmap and binders whose names are not literal count as binding every name, and code under " +
			"pytest.raises or assertRaises is expected to fail. Collectives inside Pallas kernels are PAL101's " +
			"(a communicating kernel outside a fully manual shard_map), except a kernel that asks lax.axis_size of a " +
			"device axis in eager or single-device code, which PAL104 reports at the kernel call, and a kernel that asks lax.axis_index or lax.axis_size of " +
			"an axis (of no core mesh or named grid axis of the kernel) the mesh of the fully manual shard_map around it does not have, which PAL104 reports at that axis_index. It checks the modules " +
			"that reach Pallas (they, or a module they import, name it) and the modules that name shard_map (or smap, " +
			"NamedSharding or with_sharding_constraint) and a collective, kernels or not; it holds on every backend. " +
			"make_jaxpr's axis_env binds its names, and so may a wrapper JAX has that pallas-ls does not model when it is " +
			"given mesh=, in_specs= or out_specs= (jax.experimental.roofline.roofline). An axis whose value is not known " +
			"here is reported in plain code (eager or jitted, no binder around it) when an `if` around the collective tests " +
			"it truthy (`if in_axis: psum(x, in_axis)`), or when every value it may hold is a literal name or tuple of names " +
			"(`(\"data\", \"model\") if split else \"data\"`), or when it is an attribute an object's __getattr__ chooses at " +
			"run time (AXES.DATA, read twice, is one value) that a jit around the collective shards over (P(AXES.DATA) in its " +
			"in_shardings or out_shardings): whatever names it holds are unbound there; a warning, since which " +
			"names, and whether the branch runs, is not known. An axis nothing tests may be (), a collective over " +
			"no axis, which JAX runs. " +
			"In library code (functions no entry reaches, whose callers choose the context; a function such a function " +
			"returns, as a factory returns its jitted layer, is called too, as its callers would) it warns in three cases only, " +
			"unless a binder around the collective names the axis. First, a literal axis name " +
			"that nothing else in the workspace writes, parsed file or not (a misspelt or renamed axis: every mesh, binder, core mesh " +
			"and named grid takes its names as values the program writes); the error named is " +
			"the one JAX raises inside a shard_map whose mesh lacks the name. Second, an axis the function itself shards over " +
			"on the way to the collective, in a jit's in_shardings/out_shardings (also built by jax.tree.map over literal " +
			"spec trees) or a with_sharding_constraint (not a " +
			"device_put, which JAX runs inside a shard_map too): JAX refuses such a sharding inside a shard_map that makes the " +
			"axis manual, so no caller can bind it (a shard_map removed, or turned into a jit with shardings). The axis may be " +
			"a literal or the same value, a parameter or a part of one (`in_axis, out_axis = weight_sharding`, " +
			"self.kernel_axes[0]) or an attribute an object's __getattr__ chooses at run time (AXES.DATA, read twice, is one " +
			"value), whatever axis it names; the error named is the one of a caller under jax.jit. Third, a " +
			"collective whose result the function reads as a Python value (.item(), .tolist(), float(), int(), bool()): that " +
			"read needs a concrete value, which no trace gives, so the code runs only eagerly, where no shard_map binds the axis.",
		Why: "JAX raises a NameError while tracing, before anything is lowered: \"Found an unbound axis name: x. To " +
			"fix this, please call psum under `jax.shard_map`.\" (JAX 0.7+, traced psum, pmean, pmax, pmin, " +
			"ppermute, axis_index), \"unbound axis name: x\" (all_gather, all_to_all, psum_scatter, axis_size, an " +
			"eager psum, and every collective from 0.4.36 to 0.6), or, up to 0.4.35, \"unbound axis name: x. The " +
			"following axis names (e.g. defined by pmap) are available to collective operations: []\". An eager " +
			"ppermute fails first with \"NotImplementedError: Evaluation rule for 'ppermute' not implemented\" " +
			"(0.4.36+). Inside a shard_map whose mesh lacks the name, psum and pmean of a traced value under check_vma " +
			"fail first on the name's lookup: \"KeyError: 'x'\" (0.6 to 0.8.1, core.get_vma) or a bare AssertionError " +
			"(0.8.2+, core.pvary). The message names the error of your configured JAX version.",
		Example: "step = jax.jit(lambda x: jax.lax.psum(x, \"x\"))",
		Fixed:   "step = jax.jit(jax.shard_map(lambda x: jax.lax.psum(x, \"x\"), mesh=mesh, in_specs=P(\"x\"), out_specs=P()))",
		FixSafety: "Inside a shard_map that leaves the axis automatic, the fix makes every mesh axis manual (as PAL102's): " +
			"that changes how the other axes are handled in the body; unsafe. Elsewhere there is no mechanical fix: " +
			"which mesh, in_specs and out_specs a new shard_map needs is the program's choice.",
		Since: "0.2.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((len(jax.devices()),), ("x",))
` + analysis.SnippetLine + `
step(jax.numpy.ones((8, 128)))
`,
	},
	Run: runPAL104,
}

func runPAL104(p *analysis.Pass) {
	kernelAxisSize(p)
	kernelAxisNotInMesh(p)
	for _, kc := range p.KernelCalls {
		unwrittenKernelAxis(p, kc)
	}
	shown := map[analysis.Location]bool{}
	for _, u := range p.Collectives {
		if u.NotManual != nil || u.EagerRead != nil {
			shown[u.Location] = true
		}
	}
	for _, u := range p.Collectives {
		r := u.Reach
		if r.Library {
			libraryCollective(p, u, shown)
			continue
		}
		o := lowering.UnboundCollective(p.Version, u.API, u.Eager, u.Axis)
		inSM := r.Kind == lowering.CtxShardMapPartial || r.Kind == lowering.CtxShardMapFull
		notInMesh := inSM && r.MeshAxes != nil && !contains(r.MeshAxes, u.Axis)
		if notInMesh && p.WrittenElsewhere(u.Axis, u.File, u.Span, u.PassedAt...) {
			// Another path may run this with a mesh that has the name.
			continue
		}
		switch {
		case notInMesh:
			// No axis of the mesh: the trace's axis environment lacks it
			// on every version, partial or not.
			o = lowering.NotInMeshCollective(p.Version, u.API, u.VMA, u.ConstArg, u.Axis)
			if u.MixedVMA {
				o = lowering.MixedVMACollective(p.Version, u.API, u.ConstArg, u.Axis)
			}
		case inSM:
			o = lowering.PartialShardMapCollective(p.Version, u.API, u.Axis)
		}
		if !o.Fails {
			continue
		}
		why := "outside any shard_map, pmap or vmap that binds it (jax.jit, jax.set_mesh and `with mesh:` bind no axis names)"
		var fixes []analysis.SuggestedFix
		related := pathRelated(r)
		switch r.Kind {
		case lowering.CtxShardMapFull, lowering.CtxShardMapPartial:
			why = "inside a shard_map that does not make it manual"
			if notInMesh {
				why = "inside a shard_map whose mesh has no such axis (mesh axes: " + strings.Join(r.MeshAxes, ", ") + ")"
			} else if r.Kind == lowering.CtxShardMapPartial {
				fixes = manualFixes(r)
			}
			if r.ShardMap != nil {
				related = append([]analysis.Related{{Location: *r.ShardMap, Message: "this shard_map does not bind " + u.Axis}}, related...)
			}
		}
		if u.Axis == "" {
			nonEmptyAxisCollective(p, u, o)
			continue
		}
		p.Report(analysis.Diagnostic{
			Location: u.Location,
			Fixes:    fixes,
			Message: fmt.Sprintf("`%s` names axis `%s`, %s%s; with %s this fails: %s",
				shortAPI(u.API), u.Axis, why, suffix(where(r)), version(p), quoteError(o)),
			Related: related,
			Detail:  detail(p, o), JAXError: jaxError(o),
		})
	}
}

// nonEmptyAxisCollective reports u, a collective in plain code whose axis is a
// value not known here but known to name some axis (u.AxisWhy: an `if`
// around it tested it, `if in_axis: psum(x, in_axis)`, or each value it
// may hold is a literal name): outside every binder, any name it holds is
// unbound. A warning: which names, and whether the branch runs, is not
// known here.
func nonEmptyAxisCollective(p *analysis.Pass, u *analysis.UnboundCollective, o lowering.Outcome) {
	p.Report(analysis.Diagnostic{
		Location: u.Location, Severity: analysis.SeverityWarning,
		Message: fmt.Sprintf("`%s` names %s, a value not known here but %s, outside any shard_map, pmap or vmap (jax.jit, jax.set_mesh and `with mesh:` bind no axis names), so whatever axis it names is unbound%s; with %s this fails: %s",
			shortAPI(u.API), axisPhrase(u), u.AxisWhy, suffix(where(u.Reach)), version(p), quoteError(o)),
		Related: pathRelated(u.Reach),
		Detail:  detail(p, o), JAXError: jaxError(o),
	})
}

// kernelAxisSize reports kernels whose body asks lax.axis_size of a
// device axis that nothing around the call binds, in plain (eager or
// single-device jit) code. A communicating kernel is PAL101's, and a TPU
// kernel under a multi-device jit PAL103's: their messages predict the
// same NameError.
func kernelAxisSize(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		if !kc.Effects.AxisSizeDeviceAxis || kc.Effects.Communicates() {
			continue
		}
		for _, r := range kc.Reaches {
			if r.Kind != lowering.CtxEagerSingle {
				continue
			}
			o := lowering.Predict(p.Version, reachContext(kc, r), kc.Effects)
			if !o.Fails || o.Error != "NameError" {
				continue
			}
			p.Report(analysis.Diagnostic{
				Location: kc.Site,
				Message: fmt.Sprintf("kernel `%s` asks lax.axis_size(\"%s\"), an axis nothing around the call binds%s; with %s this fails: %s",
					kc.Kernel, kc.Effects.AxisName, suffix(where(r)), version(p), quoteError(o)),
				Related: pathRelated(r),
				Detail:  detail(p, o), JAXError: jaxError(o),
			})
			break
		}
	}
}

// kernelAxisNotInMesh reports a kernel whose body (or index map) asks
// lax.axis_index of a device axis that the mesh of the fully manual
// shard_map around the call does not have: the trace of the kernel fails
// on it. PAL101 says nothing there (the call is inside a full shard_map);
// a partial shard_map is PAL102's. Only a mesh whose axes are known counts,
// and a vmap around the call may bind the name.
func kernelAxisNotInMesh(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		for _, op := range append(slices.Clip(kc.Ops), kc.SizeOps...) {
			if op.Kind != "axis_index" && op.Kind != "axis_size" || op.UnknownAxis || len(op.Axes) == 0 {
				continue
			}
			for _, r := range allReaches(kc) {
				if r.Kind != lowering.CtxShardMapFull || r.MeshAxes == nil || r.Library || r.BoundAny {
					continue
				}
				axis, ok := axisNotInMesh(p, kc, op, r)
				if !ok {
					continue
				}
				o := lowering.UnboundCollective(p.Version, op.API, false, axis)
				if !o.Fails || r.Catches(o.Error) {
					continue
				}
				related := pathRelated(r)
				if r.ShardMap != nil {
					related = append([]analysis.Related{{Location: *r.ShardMap,
						Message: "this shard_map's mesh has no axis " + axis}}, related...)
				}
				p.Report(analysis.Diagnostic{
					Location: op.Location,
					Message: fmt.Sprintf("`%s` in kernel `%s` names axis `%s`, which the mesh of the shard_map around the call does not have (mesh axes: %s)%s; with %s this fails: %s",
						shortAPI(op.API), kc.Kernel, axis, strings.Join(r.MeshAxes, ", "), suffix(where(r)), version(p), quoteError(o)),
					Related: related,
					Detail:  detail(p, o), JAXError: jaxError(o),
				})
				break
			}
		}
	}
}

// shortAPI spells a jax.lax name as users write it: "lax.psum".
func shortAPI(q string) string { return strings.TrimPrefix(q, "jax.") }

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// axisNotInMesh is the first name of op, in the order JAX reads them,
// that neither the reach's mesh, a binder around it nor the kernel's core
// mesh has. A name in a tuple of names (lax.axis_index(("y", "x"))) also
// must be written nowhere else: the kernel's named grid axes are not among
// the facts, and a tuple may mix them in.
func axisNotInMesh(p *analysis.Pass, kc *analysis.KernelCall, op analysis.OpFact, r analysis.Reach) (string, bool) {
	for _, a := range op.Axes {
		if contains(r.MeshAxes, a) || contains(r.Bound, a) || contains(kc.CoreAxes, a) {
			continue
		}
		if len(op.Axes) > 1 && p.WrittenElsewhere(a, op.File, op.Span) {
			return "", false
		}
		return a, true
	}
	return "", false
}
