package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// PAL102 reports TPU kernels called inside a shard_map that leaves some
// mesh axes automatic.
var PAL102 = &analysis.Analyzer{
	Code: "PAL102", Name: "partial-manual-shard-map", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Kernel called inside a shard_map that is not manual over every mesh axis",
		What: "Any Pallas TPU (Mosaic) kernel is called inside a shard_map or smap whose manual axes are a " +
			"strict subset of the mesh's axes (`axis_names=` a subset, old `auto=` non-empty, `jax.smap` on a " +
			"multi-axis mesh), when the mesh's axes are known. Two plain shard_map errors that such a shard_map meets " +
			"first are reported at the shard_map, kernel or not: literal in_specs/out_specs naming an axis that a literal " +
			"axis_names leaves automatic, and (before JAX 0.7) applying it eagerly, outside jax.jit.",
		Why: "Mosaic custom calls cannot be partitioned automatically: lowering raises \"NotImplementedError: Mosaic " +
			"kernels cannot be automatically partitioned. Please wrap the call in a shard_map.\" even though a " +
			"shard_map is there. The specs check comes before the body is traced: \"ValueError: shard_map in_specs argument " +
			"must refer to an axis marked as manual (frozenset({'x'})), but: in_specs refers to 'y'\"; the eager path of " +
			"JAX 0.6 raises a bare NotImplementedError for automatic axes.",
		Example:   "jax.shard_map(f, mesh=mesh2d, in_specs=P(\"x\"), out_specs=P(\"x\"), axis_names={\"x\"})",
		Fixed:     "jax.shard_map(f, mesh=mesh2d, in_specs=P(\"x\"), out_specs=P(\"x\"))",
		FixSafety: "Making every axis manual changes how the other axes are handled inside the body; unsafe.",
		Since:     "0.1.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def f(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


mesh2d = jax.make_mesh((4, 2), ("x", "y"))
sharded = (
` + analysis.SnippetLine + `
)
sharded(jax.numpy.ones((8, 128)))
`,
	},
	Run: runPAL102,
}

func runPAL102(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		t, tpu := onTPU(p, kc)
		if !tpu {
			continue
		}
		for _, r := range kc.Reaches {
			ctx := reachContext(kc, r)
			if ctx.Effective(p.Version).Kind != lowering.CtxShardMapPartial {
				continue
			}
			nested := ""
			if r.Kind == lowering.CtxShardMapFull {
				// A nest whose manual axes cover the mesh, before 0.9:
				// the innermost shard_map's own axes are what count.
				r.Missing = r.InnerMissing
				nested = " by itself (before JAX 0.9 the manual axes of the shard_maps around it do not count)"
			}
			o := lowering.Predict(p.Version, ctx, kc.Effects)
			if !o.Fails || specsFailFirst(p, r) {
				continue
			}
			if m, ok := deviceIDMismatchAt(p.Version, kc, r); ok && (m.o == o || o.Layer == lowering.LayerCustomCall) {
				// The device id fails in Pallas lowering, before the
				// custom call's partitioning check: PAL205 reports it.
				continue
			}
			if len(r.Missing) > 0 {
				// The NameError of a dict id names the first automatic axis.
				o.Message = strings.Replace(o.Message, "{name}", r.Missing[0], 1)
			}
			related := pathRelated(r)
			if r.ShardMap != nil {
				related = append([]analysis.Related{{Location: *r.ShardMap, Message: "this shard_map leaves " +
					strings.Join(r.Missing, ", ") + " automatic"}}, related...)
			}
			p.Report(targeted(p, t, analysis.Diagnostic{
				Fixes:    manualFixes(r),
				Location: kc.Site,
				Message: fmt.Sprintf("kernel `%s` is called inside a shard_map that leaves mesh axes %s not manual%s%s; %s: %s",
					kc.Kernel, strings.Join(r.Missing, ", "), nested, suffix(where(r)), fails(p, t), quoteError(o)),
				Related: related,
				Detail:  detail(p, o), JAXError: jaxError(o),
			}))
			break
		}
	}
	for _, s := range p.ShardMaps {
		if o := lowering.SpecNamesAutomaticAxis(p.Version, s.API, s.SpecArg, s.SpecAxis); s.SpecArg != "" && o.Fails {
			loc := s.ShardMap
			if s.SpecArg == "in" && s.InSpecsArg != nil {
				loc = *s.InSpecsArg
			}
			p.Report(analysis.Diagnostic{
				Location: loc,
				Message: fmt.Sprintf("%s_specs names mesh axis %s, which axis_names leaves automatic%s; the specs may name manual axes only (add %s to axis_names, or drop it from the spec); with %s this fails: %s",
					s.SpecArg, s.SpecAxis, suffix(where(s.Reach)), s.SpecAxis, version(p), quoteError(o)),
				Related: append([]analysis.Related{{Location: s.Location, Message: "applied here"}}, pathRelated(s.Reach)...),
				Detail:  detail(p, o), JAXError: jaxError(o),
			})
			continue
		}
		if !s.EagerPartial {
			continue
		}
		o := lowering.EagerPartialShardMap(p.Version, s.API)
		if !o.Fails {
			continue
		}
		p.Report(analysis.Diagnostic{
			Location: s.Location,
			Message: fmt.Sprintf("a shard_map that leaves axes of its mesh (%s) automatic is applied eagerly, outside jax.jit%s; "+
				"before JAX %s its eager implementation does not support automatic axes (wrap the call in jax.jit); with %s this fails: %s",
				strings.Join(s.Mesh.Axes, ", "), suffix(where(s.Reach)), lowering.EagerPartialShardMapSince, version(p), quoteError(o)),
			Related: append([]analysis.Related{{Location: s.ShardMap, Message: "the shard_map"}}, pathRelated(s.Reach)...),
			Detail:  detail(p, o), JAXError: jaxError(o),
		})
	}
}

// manualFixes makes every mesh axis manual at the shard_map: remove
// axis_names= (or the old auto=), or list every mesh axis in axis_names.
// Both are unsafe: the body then sees the other axes as manual too.
func manualFixes(r analysis.Reach) []analysis.SuggestedFix {
	s, call := r.SMFile, r.SMCall
	if s == nil || call == nil || call.Kind != ir.ExCall {
		return nil
	}
	var out []analysis.SuggestedFix
	for i, kw := range call.Kw() {
		if kw.Name != "axis_names" && kw.Name != "auto" {
			continue
		}
		start := kw.NameSpan.Start
		// Take the separating comma before it (f always precedes it).
		j := start
		for j > call.Span.Start && strings.ContainsRune(" \t\r\n", rune(s.Src[j-1])) {
			j--
		}
		if j > call.Span.Start && s.Src[j-1] == ',' {
			start = j - 1
		}
		out = append(out, analysis.SuggestedFix{
			Title:         "Remove `" + kw.Name + "=` so that every mesh axis is manual (unsafe)",
			Applicability: analysis.Unsafe,
			Edits:         []analysis.TextEdit{analysis.Edit(s, pp.Span{Start: start, End: kw.Value.Span.End}, "")},
		})
		if kw.Name == "axis_names" && r.MeshAxes != nil {
			var q []string
			for _, a := range r.MeshAxes {
				q = append(q, strconv.Quote(a))
			}
			out = append(out, analysis.SuggestedFix{
				Title:         "Make every mesh axis manual: axis_names={" + strings.Join(q, ", ") + "} (unsafe)",
				Applicability: analysis.Unsafe,
				Edits:         []analysis.TextEdit{analysis.Edit(s, call.Kw()[i].Value.Span, "{"+strings.Join(q, ", ")+"}")},
			})
		}
	}
	return out
}

// specsFailFirst: the shard_map around r names an automatic axis in its
// specs, which JAX rejects before tracing the body (reported at the
// shard_map, below): the kernel's own error is never reached.
func specsFailFirst(p *analysis.Pass, r analysis.Reach) bool {
	if r.ShardMap == nil {
		return false
	}
	for _, s := range p.ShardMaps {
		if s.SpecArg != "" && s.ShardMap == *r.ShardMap && lowering.SpecNamesAutomaticAxis(p.Version, s.API, s.SpecArg, s.SpecAxis).Fails {
			return true
		}
	}
	return false
}
