package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL106 reports a shard_map given a concrete mesh inside the body of
// another shard_map.
var PAL106 = &analysis.Analyzer{
	Code: "PAL106", Name: "nested-shard-map-mesh", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Nested shard_map given a concrete mesh",
		What: "A shard_map is applied inside the body of another shard_map (jax.shard_map, or " +
			"jax.experimental.shard_map.shard_map from JAX 0.8) and its `mesh=` is a concrete mesh built by " +
			"jax.sharding.Mesh or jax.make_mesh, on a path from a concrete entry point. Leaving `mesh=` out (the " +
			"inner shard_map then uses the context mesh) or passing jax.sharding.get_abstract_mesh() is fine; a " +
			"mesh whose origin is not visible is not judged, nor code under vmap. Like every SPMD rule it checks the " +
			"modules that reach Pallas (they, or a module they import, name it).",
		Why: "Inside a shard_map's body the context mesh is the outer mesh's abstract mesh with the outer " +
			"shard_map's axes typed Manual. From JAX 0.6.1 jax.shard_map checks that the mesh it is given equals the " +
			"context mesh, and no concrete mesh does (nor its .abstract_mesh): \"ValueError: The context mesh " +
			"AbstractMesh('x': 4, 'y': 2, axis_types=(Manual, Auto), ...) should match the mesh passed to shard_map " +
			"Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto))\", raised while tracing, before any kernel in the body is " +
			"looked at. jax.experimental.shard_map.shard_map skipped the check before 0.8.0.",
		Example: "inner = jax.shard_map(f, mesh=mesh, in_specs=P(), out_specs=P(), axis_names={\"y\"})",
		Fixed:   "inner = jax.shard_map(f, in_specs=P(), out_specs=P(), axis_names={\"y\"})",
		FixSafety: "No automatic fix: leaving mesh= out makes the inner shard_map use whatever mesh is in context, " +
			"which fails where it is also called outside any shard_map or mesh context.",
		Since: "0.3.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.sharding import PartitionSpec as P


def f(x):
    return x + 1


mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
` + analysis.SnippetLine + `
outer = jax.shard_map(inner, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})
jax.jit(outer)(jax.numpy.ones((64, 128)))
`,
	},
	Run: runPAL106,
}

func runPAL106(p *analysis.Pass) {
	for _, s := range p.ShardMaps {
		if s.Mesh == nil || s.Outer == nil {
			continue
		}
		o := lowering.NestedShardMapMesh(p.Version, s.API, s.OuterEagerPartial)
		if !o.Fails {
			continue
		}
		loc := s.ShardMap
		if s.MeshArg != nil {
			loc = *s.MeshArg
		}
		related := []analysis.Related{{Location: *s.Outer, Message: "inside the body of this shard_map, whose context mesh has its manual axes typed Manual"}}
		if len(s.Reach.Path) == 0 {
			related = append(related, analysis.Related{Location: s.Location, Message: "applied here"})
		}
		related = append(related, pathRelated(s.Reach)...)
		p.Report(analysis.Diagnostic{
			Location: loc,
			Message: fmt.Sprintf("shard_map inside another shard_map's body is given a concrete mesh%s; leave mesh= out (or pass jax.sharding.get_abstract_mesh()); with %s this fails: %s",
				suffix(where(s.Reach)), version(p), quoteError(o)),
			Related: related,
			Detail:  detail(p, o), JAXError: jaxError(o),
		})
	}
}
