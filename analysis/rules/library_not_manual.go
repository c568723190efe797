package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// Kernels in library code whose own path shows a mesh axis is not manual
// (analysis.Reach.Unmanual): the function jits the kernel with shardings
// over the axis, or constrains an operand to one, which JAX refuses
// inside a shard_map that makes the axis manual. So no caller can run the
// kernel inside a fully manual shard_map, and PAL101 (communicating
// kernels) and PAL103 (any kernel under a jit with shardings) warn where
// they would otherwise only hint that callers decide. The error named is
// the one of the usual caller, plain code under jit; it is a warning, as
// the function may have no caller at all.

// notManualReach returns a library reach of kc whose path shows a mesh
// axis is not manual, when every reach of kc is a library entry's.
func notManualReach(kc *analysis.KernelCall) (analysis.Reach, bool) {
	if _, ok := onlyUnknown(kc); !ok {
		return analysis.Reach{}, false
	}
	for _, r := range kc.Reaches {
		if r.Library && !r.BoundAny && len(r.Unmanual) > 0 && r.UnmanualAt != nil {
			return r, true
		}
	}
	return analysis.Reach{}, false
}

// notManualWhy says why r cannot be inside a fully manual shard_map.
func notManualWhy(r analysis.Reach) string {
	at := r.UnmanualAt
	return fmt.Sprintf("%s at %s:%d, which JAX refuses inside a shard_map that makes `%s` manual",
		at.Message, filepath.Base(at.File), at.Pos.Line, strings.Join(r.Unmanual, "`, `"))
}

// notManualOutcome predicts kc reached by r as called under a jit over
// several devices.
func notManualOutcome(p *analysis.Pass, kc *analysis.KernelCall, r analysis.Reach) lowering.Outcome {
	c := reachContext(kc, r)
	c.Kind = lowering.CtxJitMulti
	return lowering.Predict(p.Version, c, kc.Effects)
}

// reportNotManual reports kc (what describes it) reached by r; it
// reports nothing and returns false when JAX would raise nothing there.
func reportNotManual(p *analysis.Pass, kc *analysis.KernelCall, r analysis.Reach, what string, related []analysis.Related) bool {
	o := notManualOutcome(p, kc, r)
	if !o.Fails {
		return false
	}
	// The mesh is the callers'; over Explicit axes another error may come
	// first.
	explicit := ""
	c := reachContext(kc, r)
	c.Kind, c.ExplicitMesh = lowering.CtxJitMulti, true
	if eo := lowering.Predict(p.Version, c, kc.Effects); eo.Fails && (eo.Error != o.Error || eo.Message != o.Message) {
		explicit = " (with inputs sharded over a mesh with Explicit axes, first: " + quoteError(eo) + ")"
	}
	// A kernel that does not communicate fails only where XLA must
	// partition it.
	when := ""
	if !kc.Effects.Communicates() {
		when = " when `" + r.Unmanual[0] + "` spans more than one device"
	}
	t, _ := onTPU(p, kc)
	d := targeted(p, t, analysis.Diagnostic{
		Location: kc.Site, Severity: analysis.SeverityWarning,
		Message: fmt.Sprintf("%s, and callers cannot run it inside a fully manual jax.shard_map: %s%s; %s%s: %s%s",
			what, notManualWhy(r), suffix(r.Entry), fails(p, t), when, quoteError(o), explicit),
		Related: append(append([]analysis.Related{*r.UnmanualAt}, related...), pathRelated(r)...),
		Detail:  detail(p, o), JAXError: jaxError(o),
	})
	d.Severity = analysis.SeverityWarning
	p.Report(d)
	return true
}
