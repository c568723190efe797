package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL204 reports a barrier semaphore without a collective_id, and a
// collective_id on a kernel without one.
var PAL204 = &analysis.Analyzer{
	Code: "PAL204", Name: "collective-id", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Barrier semaphore without collective_id, or collective_id without a barrier",
		What: "A Pallas TPU kernel reaches pltpu.get_barrier_semaphore() (directly, through helpers, pl.when or " +
			"lax.cond branches, which are traced even when they never run) and its compiler params (pltpu.CompilerParams, " +
			"or before JAX 0.6.1 the dict form {\"mosaic\": {...}}) give no collective_id; or the params give a collective_id and the kernel never uses the barrier semaphore, " +
			"without allow_collective_id_without_custom_barrier=True (JAX 0.7.2 and later). Kernels in interpret " +
			"mode, and programs that mention jax_pallas_auto_assign_collective_ids, are not reported for a missing id.",
		Why: "Building the TPU custom call fails at lowering time with \"ValueError: collective_id has to be " +
			"specified when using a custom barrier\" or \"collective_id has to be unspecified or None when not " +
			"using a custom barrier\". The custom call's configuration is built before its partitioning check, so " +
			"under a jit over several devices (PAL103) or the legacy pmap (PAL101) this error comes first.",
		Example: "pl.pallas_call(barrier_kernel, out_shape=x)(x)",
		Fixed:   "pl.pallas_call(barrier_kernel, out_shape=x, compiler_params=pltpu.CompilerParams(collective_id=0))(x)",
		FixSafety: "Adding collective_id=0 is unsafe: kernels that synchronise at the same time need distinct ids. " +
			"Dropping an unused collective_id is safe.",
		Since: "0.2.0",
		Scaffold: `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def barrier_kernel(x_ref, o_ref):
    sem = pltpu.get_barrier_semaphore()
    pl.semaphore_wait(sem, 0)
    o_ref[...] = x_ref[...]


x = jax.numpy.ones((8, 128))
` + analysis.SnippetLine + "\n",
	},
	Run: runPAL204,
}

func runPAL204(p *analysis.Pass) {
	for _, kc := range p.KernelCalls {
		switch collectiveIDCheck(p, kc) {
		case idMissing:
			reportMissingID(p, kc)
		case idSpurious:
			reportSpuriousID(p, kc, kc.Lowering.Params)
		}
	}
}

// What the custom call's configuration says of a kernel's collective_id.
const (
	idFine = iota
	idMissing
	idSpurious
)

// collectiveIDCheck is PAL204's judgement of a kernel call. JAX builds the
// custom call's configuration (_lowered_to_custom_call_config, where both
// collective_id errors are raised) before _tpu_custom_call_lowering's
// partitioning and replica checks, so only SPMD errors of the earlier
// layers (trace, Pallas lowering) come first.
func collectiveIDCheck(p *analysis.Pass, kc *analysis.KernelCall) int {
	cfg := kc.Lowering
	if !isTPU(kc) || cfg.BodyBackend == lowering.BackendGPU || interpreted(kc) || !lowered(kc) || spmdFailsFirst(p.Version, kc) {
		return idFine
	}
	if _, bad := deviceIDMismatch(p.Version, kc); bad {
		return idFine // PAL205: lowering fails before the custom call is built
	}
	params := cfg.Params
	if cfg.ParamsGiven && (params == nil || !tpuParams(p.Version, params.Qual)) {
		return idFine // unknown params, or another platform's (PAL201)
	}
	switch {
	case cfg.Barrier != nil:
		if params != nil && (params.IDGiven || params.Opaque) {
			return idFine
		}
		if p.Version.AtLeast(lowering.AutoAssignCollectiveIDsSince) && mentions(p, "jax_pallas_auto_assign_collective_ids") {
			return idFine
		}
		return idMissing
	case params != nil && params.IDGiven && params.CollectiveIDKnown && cfg.BodyRead:
		if params.Allow != nil && (!params.AllowKnown || params.AllowValue || p.Version.Less(lowering.AllowCollectiveIDSince)) {
			return idFine // allowed, or (before 0.7.2) a TypeError PAL301 reports
		}
		return idSpurious
	}
	return idFine
}

// tpuParams: params of a class the TPU lowering reads collective_id from
// at v (the dict form only before lowering.TPUParamsDictUntil).
func tpuParams(v lowering.Version, qual string) bool {
	switch qual {
	case lowering.TPUParamsQual, lowering.TPUParamsOldQual:
		return true
	case lowering.TPUParamsDictQual:
		return v.Less(lowering.TPUParamsDictUntil)
	}
	return false
}

// spmdFailsFirst: some context the call is reached in fails for SPMD
// reasons (PAL101-PAL103 report it) before the custom call's
// configuration is built.
func spmdFailsFirst(v lowering.Version, kc *analysis.KernelCall) bool {
	for _, r := range kc.Reaches {
		if o := lowering.Predict(v, r.Context(), kc.Effects); o.Fails && o.Layer != lowering.LayerCustomCall {
			return true
		}
	}
	return false
}

// collectiveIDFirst is PAL204's error when it comes before o, an SPMD
// error of the custom-call layer, with the phrase that says so.
func collectiveIDFirst(p *analysis.Pass, kc *analysis.KernelCall, o lowering.Outcome) (lowering.Outcome, string, bool) {
	if o.Layer != lowering.LayerCustomCall {
		return o, "", false
	}
	switch collectiveIDCheck(p, kc) {
	case idMissing:
		return lowering.CollectiveIDMissing(p.Version), " (first, on the compiler params' missing collective_id: PAL204)", true
	case idSpurious:
		return lowering.CollectiveIDSpurious(), " (first, on the compiler params' collective_id: PAL204)", true
	}
	return o, "", false
}

func reportMissingID(p *analysis.Pass, kc *analysis.KernelCall) {
	cfg := kc.Lowering
	o := lowering.CollectiveIDMissing(p.Version)
	loc, ok := paramsValueLocation(kc)
	if !ok {
		loc = calleeLocation(kc)
	}
	d := analysis.Diagnostic{
		Location: loc,
		Message: fmt.Sprintf("kernel `%s` uses the barrier semaphore (line %d) but its compiler params set no collective_id; with %s this fails: %s",
			kc.Kernel, cfg.Barrier.Pos.Line, version(p), quoteError(o)),
		Related: []analysis.Related{{Location: *cfg.Barrier, Message: "the barrier semaphore is used here"}},
		Detail:  detail(p, o), JAXError: jaxError(o),
	}
	if fix, ok := addCollectiveIDFix(p, kc); ok {
		d.Fixes = append(d.Fixes, fix)
	}
	p.Report(d)
}

func reportSpuriousID(p *analysis.Pass, kc *analysis.KernelCall, params *analysis.CompilerParams) {
	o := lowering.CollectiveIDSpurious()
	s := fileOfCall(p, params.Call)
	loc := kc.Site
	if s != nil && params.CollectiveID != nil {
		loc = analysis.Locate(s, keywordSpan(params.CollectiveID))
	} else if l, ok := paramsValueLocation(kc); ok {
		loc = l // the dict form
	}
	hint := ""
	if p.Version.AtLeast(lowering.AllowCollectiveIDSince) {
		hint = " (or pass allow_collective_id_without_custom_barrier=True)"
	}
	d := analysis.Diagnostic{
		Location: loc,
		Message: fmt.Sprintf("kernel `%s` never uses the barrier semaphore but its compiler params set collective_id%s; with %s this fails: %s",
			kc.Kernel, hint, version(p), quoteError(o)),
		Detail: detail(p, o), JAXError: jaxError(o),
	}
	if s != nil && params.CollectiveID != nil {
		if e, ok := dropKeywordEdit(s, params.Call, params.CollectiveID); ok {
			d.Fixes = append(d.Fixes, analysis.SuggestedFix{Title: "Remove `collective_id`", Applicability: analysis.Safe,
				Edits: []analysis.TextEdit{e}})
		}
	}
	p.Report(d)
}

// paramsValueLocation is the `compiler_params=` value of the declaration.
func paramsValueLocation(kc *analysis.KernelCall) (analysis.Location, bool) {
	cfg := kc.Lowering
	if cfg.ParamsKeyword == nil || cfg.DeclFile == nil || cfg.ParamsKeyword.Value == nil {
		return analysis.Location{}, false
	}
	return analysis.Locate(cfg.DeclFile, cfg.ParamsKeyword.Value.Span), true
}

// calleeLocation is the `pl.pallas_call` of the declaration (a short
// highlight), else the call site.
func calleeLocation(kc *analysis.KernelCall) analysis.Location {
	cfg := kc.Lowering
	if cfg.DeclCall != nil && cfg.DeclFile != nil && cfg.DeclCall.Kind == ir.ExCall && cfg.DeclCall.X != nil {
		return analysis.Locate(cfg.DeclFile, cfg.DeclCall.X.Span)
	}
	return kc.Site
}

// addCollectiveIDFix adds collective_id=0 to the params call, or
// compiler_params=pltpu.CompilerParams(collective_id=0) to the declaration.
func addCollectiveIDFix(p *analysis.Pass, kc *analysis.KernelCall) (analysis.SuggestedFix, bool) {
	cfg := kc.Lowering
	fix := analysis.SuggestedFix{Title: "Add `collective_id=0` to the compiler params", Applicability: analysis.Unsafe}
	if cfg.Params != nil {
		if cfg.Params.Call == nil {
			return fix, false // the dict form
		}
		s := fileOfCall(p, cfg.Params.Call)
		if s == nil {
			return fix, false
		}
		e, ok := appendArgEdit(s, cfg.Params.Call, "collective_id=0")
		fix.Edits = []analysis.TextEdit{e}
		return fix, ok
	}
	if cfg.ParamsGiven || cfg.DeclFile == nil || cfg.DeclCall == nil {
		return fix, false
	}
	if api, ok := lowering.Lookup(lowering.TPUParamsQual); !ok || api.StatusAt(p.Version) != lowering.StatusOK {
		return fix, false
	}
	alias, ok := moduleAlias(cfg.DeclFile, "jax.experimental.pallas.tpu")
	if !ok {
		return fix, false
	}
	e, ok := appendArgEdit(cfg.DeclFile, cfg.DeclCall, "compiler_params="+alias+".CompilerParams(collective_id=0)")
	fix.Edits = []analysis.TextEdit{e}
	return fix, ok
}
