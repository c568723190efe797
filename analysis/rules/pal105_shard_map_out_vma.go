package rules

import (
	"fmt"
	"slices"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// PAL105 reports a kernel traced under jax.shard_map with check_vma on
// whose out_shape is a jax.ShapeDtypeStruct that does not say how it
// varies across the manual axes.
var PAL105 = &analysis.Analyzer{
	Code: "PAL105", Name: "shard-map-out-vma", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "ShapeDtypeStruct output without vma inside a shard_map with check_vma=True",
		What: "A pl.pallas_call (JAX 0.6.2 and later) or a pl.kernel (0.10.1 and later, where pl.kernel(...) itself " +
			"is called) is traced inside jax.shard_map with check_vma=True (the default), " +
			"jax.experimental.shard_map.shard_map with check_rep=True (the default) or jax.smap, and its out_shape " +
			"(out_type) holds a jax.ShapeDtypeStruct built without vma= (manual_axis_type= from 0.10.0). " +
			"An out_shape given as an array (out_shape=x), a struct that passes the keyword, check_vma=False, " +
			"jax.pmap (which turns the check off), a check_vma that is not a literal and code under pytest.raises or " +
			"assertRaises are not reported. " +
			"Before JAX 0.6.1 it reports any pallas_call in a jax.experimental.shard_map.shard_map body " +
			"with check_rep=True, whatever its out_shape.",
		Why: "Under check_vma JAX must know which mesh axes each output varies over, and a plain ShapeDtypeStruct " +
			"does not say: tracing fails with \"ValueError: When `check_vma=True` on `jax.shard_map`, `vma` on " +
			"`jax.ShapeDtypeStruct` must not be `None`. ...\" (`manual_axis_type` from JAX 0.10.0), before the " +
			"kernel body is traced. Before 0.6.1 the old shard_map's replication check knew no pallas_call: " +
			"\"NotImplementedError: No replication rule for pallas_call. As a workaround, pass the `check_rep=False` " +
			"argument to `shard_map`. ...\"",
		Example: "jax.shard_map(step, mesh=mesh, in_specs=P(\"x\"), out_specs=P(\"x\"))(x)",
		Fixed:   "jax.shard_map(step, mesh=mesh, in_specs=P(\"x\"), out_specs=P(\"x\"), check_vma=False)(x)",
		FixSafety: "Turning check_vma off also turns off JAX's replication checks for the whole body; passing " +
			"vma= (manual_axis_type=) with the axes the output varies over, e.g. jax.typeof(x).vma, keeps them. " +
			"The fix offered sets check_vma=False (check_rep=False) and is unsafe.",
		Since: "0.2.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = jax.make_mesh((8,), ("x",))
x = jax.numpy.ones((64, 128))
` + analysis.SnippetLine + "\n",
	},
	Run: runPAL105,
}

func runPAL105(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		if o, ok := lowering.RepRuleMissing(p.Version); ok {
			if r, ok := vmaReach(kc); ok && kc.API == lowering.PallasCallQual && r.SMCall != nil && callsAPI(r.SMFile, r.SMCall.X, oldShardMap) {
				reportPAL105(p, kc, r, kc.Site, o, fmt.Sprintf("kernel `%s` is called inside a shard_map with check_rep on, which has no replication rule for pallas_call before JAX %s",
					kc.Kernel, lowering.RepRuleMissingUntil))
			}
			continue
		}
		if !lowering.OutVMAChecked(p.Version, kc.API) {
			continue
		}
		s, ok := bareStruct(kc)
		if !ok || kc.API == lowering.KernelEntryQual && !declaredAtCall(kc) {
			continue
		}
		if r, ok := vmaReach(kc); ok {
			reportPAL105(p, kc, r, s.Location, lowering.OutVMAMissing(p.Version), fmt.Sprintf("kernel `%s` declares its output as a jax.ShapeDtypeStruct without %s= and is traced inside a shard_map with check_vma on",
				kc.Kernel, lowering.OutVMAKeyword(p.Version)))
		}
	}
}

func reportPAL105(p *analysis.Pass, kc *analysis.KernelCall, r analysis.Reach, at analysis.Location, o lowering.Outcome, what string) {
	related := []analysis.Related{}
	if r.ShardMap != nil {
		related = append(related, analysis.Related{Location: *r.ShardMap, Message: "this shard_map traces its body with the check on"})
	}
	related = append(related, pathRelated(r)...)
	d := analysis.Diagnostic{
		Location: at,
		Message:  fmt.Sprintf("%s%s; with %s this fails: %s", what, suffix(where(r)), version(p), quoteError(o)),
		Related:  related,
		Detail:   detail(p, o), JAXError: jaxError(o),
	}
	if fix, ok := checkOffFix(r); ok {
		d.Fixes = append(d.Fixes, fix)
	}
	p.Report(d)
}

// bareStruct is the first output struct that gives neither vma= nor
// manual_axis_type= (the other release's keyword is a TypeError, PAL301's).
func bareStruct(kc *analysis.KernelCall) (analysis.ShapeStruct, bool) {
	for _, s := range kc.OutStructs {
		if s.Splat || slices.Contains(s.Keywords, "vma") || slices.Contains(s.Keywords, "manual_axis_type") {
			continue
		}
		return s, true
	}
	return analysis.ShapeStruct{}, false
}

// declaredAtCall: pl.kernel(...) is called in the expression that calls
// its kernel, so it converts out_type in the call's context.
func declaredAtCall(kc *analysis.KernelCall) bool {
	c := kc.Call
	return c != nil && c.X != nil && kc.Decl.File == kc.Site.File && kc.Decl.Span == c.X.Span
}

// vmaReach is the first context that traces the call with check_vma on
// (jitted or eager: the oracle records both failing).
func vmaReach(kc *analysis.KernelCall) (analysis.Reach, bool) {
	for _, r := range kc.Reaches {
		if r.CheckVMA {
			return r, true
		}
	}
	return analysis.Reach{}, false
}

// checkOffFix sets check_vma=False (check_rep=False on the old
// shard_map) on the shard_map call that turns the check on: unsafe, since
// it drops the body's replication checks.
func checkOffFix(r analysis.Reach) (analysis.SuggestedFix, bool) {
	s, call := r.SMFile, r.SMCall
	if s == nil || call == nil || call.Kind != ir.ExCall || call.X == nil {
		return analysis.SuggestedFix{}, false
	}
	kw := "check_vma"
	switch {
	case callsAPI(s, call.X, oldShardMap):
		kw = "check_rep"
		if len(call.Args) > 4 {
			return fixEdit(analysis.Edit(s, call.Args[4].Span, "False"), kw)
		}
	case !callsAPI(s, call.X, "jax.shard_map"):
		return analysis.SuggestedFix{}, false
	}
	end := -1
	for _, a := range call.Args {
		if a.Kind == ir.ExStarred {
			return analysis.SuggestedFix{}, false
		}
		end = max(end, a.Span.End)
	}
	for _, k := range call.Kw() {
		switch k.Name {
		case "":
			return analysis.SuggestedFix{}, false // **kwargs may hold the flag
		case kw:
			return fixEdit(analysis.Edit(s, k.Value.Span, "False"), kw)
		}
		end = max(end, k.Value.Span.End)
	}
	if end < 0 {
		return analysis.SuggestedFix{}, false
	}
	return fixEdit(analysis.Edit(s, pp.Span{Start: end, End: end}, ", "+kw+"=False"), kw)
}

func fixEdit(e analysis.TextEdit, kw string) (analysis.SuggestedFix, bool) {
	return analysis.SuggestedFix{Title: "Set " + kw + "=False on the shard_map (unsafe: drops its replication checks)",
		Applicability: analysis.Unsafe, Edits: []analysis.TextEdit{e}}, true
}

const oldShardMap = "jax.experimental.shard_map.shard_map"

// callsAPI reports whether the callee expression e resolves to api.
func callsAPI(s *ir.Summary, e *ir.Expr, api string) bool {
	if s == nil || e == nil {
		return false
	}
	for _, r := range s.Refs {
		if r.Kind == ir.RefExpr && r.Span == e.Span {
			a, ok := lowering.Lookup(r.Qual)
			return ok && a.Name == api
		}
	}
	return false
}
