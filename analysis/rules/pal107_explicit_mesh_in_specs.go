package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL107 reports a shard_map over an Explicit mesh whose in_specs shard
// an argument that is not sharded that way.
var PAL107 = &analysis.Analyzer{
	Code: "PAL107", Name: "explicit-mesh-in-specs", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Sharding in_specs for an unsharded argument over Explicit mesh axes",
		What: "jax.shard_map (or the experimental one) over a mesh whose axes are all Explicit (jax.make_mesh " +
			"without axis_types from JAX 0.9.0, or axis_types all AxisType.Explicit), manual over every mesh axis " +
			"(any manual axes from 0.12), is applied, on a path from a concrete entry point, to a fresh unsharded " +
			"array (jnp.ones/zeros/empty/full of literal shape, or a jax.ShapeDtypeStruct without sharding) whose " +
			"in_specs entry names mesh axes. It fires " +
			"only where every check shard_map makes first is known to pass (literal PartitionSpecs of mesh axes, " +
			"shapes that fit them) and not under vmap; an argument placed with jax.device_put(x, NamedSharding(...)) " +
			"or of unknown origin is not judged. Like every SPMD rule it checks the modules that reach Pallas.",
		Why: "With Explicit axes an array's type carries its sharding, and from JAX 0.9.1 shard_map checks that " +
			"each in_specs entry equals the argument's sharding spec instead of resharding it: \"ValueError: in_specs " +
			"passed to shard_map: P('x', None) does not match the specs of the input: P(None, None) for arg: " +
			"float32[64,128]. ...\", raised while tracing, before any kernel in the body is looked at. The programs " +
			"this breaks are the ones that ran before 0.9, when jax.make_mesh's axes defaulted to Auto.",
		Example: "mesh = jax.make_mesh((8,), (\"x\",))",
		Fixed:   "mesh = jax.make_mesh((8,), (\"x\",), axis_types=(jax.sharding.AxisType.Auto,))",
		FixSafety: "No automatic fix: either make the axes Auto (axis_types=), place the argument with " +
			"jax.device_put(x, NamedSharding(mesh, spec)) or jax.reshard, or omit in_specs so that shard_map infers " +
			"them; which one is the program's choice.",
		Since: "0.3.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.sharding import PartitionSpec as P


def f(x):
    return x + 1


` + analysis.SnippetLine + `
jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(jax.numpy.ones((64, 128)))
`,
	},
	Run: runPAL107,
}

func runPAL107(p *analysis.Pass) {
	for _, s := range p.ShardMaps {
		m := s.Mesh
		if m == nil || s.Spec == "" || !lowering.MeshAxesExplicit(p.Version, m.TypesDefault, m.TypesExplicit) {
			continue
		}
		o := lowering.ExplicitInSpecs(p.Version, s.API, s.FullManual, s.Spec, s.InputSpec)
		if !o.Fails {
			continue
		}
		loc := s.ShardMap
		if s.InSpecsArg != nil {
			loc = *s.InSpecsArg
		}
		why := "axis_types all Explicit"
		if m.TypesDefault {
			why = "jax.make_mesh without axis_types: Explicit axes since JAX " + lowering.MakeMeshExplicitSince.String()
		}
		related := pathRelated(s.Reach)
		if len(related) == 0 {
			related = []analysis.Related{{Location: s.Location, Message: "applied here to an unsharded array"}}
		}
		p.Report(analysis.Diagnostic{
			Location: loc,
			Message: fmt.Sprintf("in_specs entry %s shards an unsharded argument over a mesh with Explicit axes (%s)%s; with %s this fails: %s",
				s.Spec, why, suffix(where(s.Reach)), version(p), quoteError(o)),
			Related: related,
			Detail:  detail(p, o), JAXError: jaxError(o),
		})
	}
}
