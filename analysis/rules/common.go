package rules

import (
	"fmt"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// version names the JAX version a message predicts for; where it came
// from is in the hover (versionWhy), keeping messages one short line.
func version(p *analysis.Pass) string { return "JAX " + p.Version.String() }

func versionWhy(p *analysis.Pass) string {
	s := version(p)
	if r := p.Options.JAXVersionReason; r != "" {
		s += " (" + r + ")"
	}
	return s
}

// quoteError renders an outcome as "NameError: Found an unbound ...".
func quoteError(o lowering.Outcome) string {
	msg := strings.TrimSpace(o.Message)
	if o.Error != "" && msg == "" {
		if o.Error != "AssertionError" {
			return o.Error + " (raised with no message)"
		}
		return o.Error + " (a bare assert)"
	}
	if o.Error != "" {
		return o.Error + ": " + msg
	}
	return msg
}

// jaxError is the jax_error of a finding that predicts outcome o: nil
// when o predicts no failure.
func jaxError(o lowering.Outcome) *analysis.JAXError {
	if !o.Fails || o.Error == "" {
		return nil
	}
	return &analysis.JAXError{Type: o.Error, Message: strings.TrimSpace(o.Message)}
}

// detail is the hover text of an SPMD finding.
func detail(p *analysis.Pass, o lowering.Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Predicted first error with %s:\n\n    %s\n", versionWhy(p), quoteError(o))
	if o.Layer != "" || o.Where != "" {
		fmt.Fprintf(&b, "\nRaised at %s time", o.Layer)
		if o.Where != "" {
			fmt.Fprintf(&b, " by %s", o.Where)
		}
		b.WriteString(".\n")
	}
	return b.String()
}

// opsRelated points at the communicating operations.
func opsRelated(kc *analysis.KernelCall) []analysis.Related {
	var out []analysis.Related
	for _, op := range kc.Ops {
		what := op.Kind
		switch op.IDForm {
		case "dict":
			what += " with device_id naming axes " + strings.Join(op.Axes, ", ")
		case "tuple", "int":
			what += " with a " + op.IDForm + " device_id"
		}
		if op.Kind == "axis_index" {
			what = axisIndexCall(op) + " on a device axis"
		}
		out = append(out, analysis.Related{Location: op.Location, Message: "communicates here: " + what})
	}
	return out
}

// opSummary is a short phrase naming the first communicating op.
func opSummary(kc *analysis.KernelCall) string {
	if len(kc.Ops) == 0 {
		return "communicates"
	}
	op := kc.Ops[0]
	s := op.Kind
	if op.Kind == "axis_index" {
		s = axisIndexCall(op)
	}
	s += fmt.Sprintf(" at line %d", op.Pos.Line)
	if len(kc.Ops) > 1 {
		s += fmt.Sprintf(" and %d more", len(kc.Ops)-1)
	}
	return s
}

// pathRelated renders a witness path, nearest first, ending at the entry.
func pathRelated(r analysis.Reach) []analysis.Related {
	out := append([]analysis.Related{}, r.Path...)
	if len(out) > 0 && r.Entry != "" {
		last := &out[len(out)-1]
		last.Message += " (" + r.Entry + ")"
	}
	return out
}

// where describes a reach for a message: "reached from test test_ring via ring(x)".
func where(r analysis.Reach) string {
	s := ""
	if r.Entry != "" {
		s = "reached from " + r.Entry
	}
	if r.Jit != "" {
		if s != "" {
			s += " "
		}
		s += "through `" + r.Jit + "`"
	}
	return s
}

// reachContext is the lowering context of kc reached by r.
func reachContext(kc *analysis.KernelCall, r analysis.Reach) lowering.Context {
	c := r.Context()
	c.AxisBound = r.BoundAny || kc.Effects.AxisName != "" && contains(r.Bound, kc.Effects.AxisName)
	return c
}

// earlierCollective finds a collective on an unbound name that JAX meets
// before kernel call kc reached by r (issue 18 item 9): in the same jit
// (one trace: before any lowering error, and before the kernel's own
// trace-time errors when it comes first in the file), or in the same
// eager entry earlier in the same file. Its error is then the one raised.
func earlierCollective(p *analysis.Pass, kc *analysis.KernelCall, r analysis.Reach, o lowering.Outcome) (*analysis.UnboundCollective, lowering.Outcome, bool) {
	for _, u := range p.Collectives {
		ur := u.Reach
		if ur.Entry != r.Entry || ur.Jit != r.Jit || ur.Kind != r.Kind || !sameOuterCall(ur, r) {
			continue
		}
		before := u.File == kc.Site.File && u.Span.Start < kc.Site.Span.Start
		if r.Jit == "" && !before || r.Jit != "" && o.Layer == lowering.LayerTrace && !before {
			continue
		}
		if uo := lowering.UnboundCollective(p.Version, u.API, u.Eager, u.Axis); uo.Fails {
			return u, uo, true
		}
	}
	return nil, lowering.Outcome{}, false
}

// sameOuterCall reports whether two witness paths leave their entry
// through the same call (the jit call, or the eager call, at top level).
func sameOuterCall(a, b analysis.Reach) bool {
	if len(a.Path) == 0 || len(b.Path) == 0 {
		return len(a.Path) == len(b.Path)
	}
	x, y := a.Path[len(a.Path)-1].Location, b.Path[len(b.Path)-1].Location
	return x.File == y.File && x.Span == y.Span
}

// firstError is o, or the error of a collective JAX meets first, with
// the phrase that says so ("" when o stands).
func firstError(p *analysis.Pass, kc *analysis.KernelCall, r analysis.Reach, o lowering.Outcome) (lowering.Outcome, string) {
	if co, how, ok := coreKernelTransform(p.Version, kc, r); ok && o.Layer != lowering.LayerTrace {
		// vmap's batching rule and the legacy pmap's effect check come
		// before any kernel lowering error (a trace-time one comes first).
		return co, " (first, " + how + ": PAL108)"
	}
	u, uo, ok := earlierCollective(p, kc, r, o)
	if !ok {
		if co, first, ok := collectiveIDFirst(p, kc, o); ok {
			return co, first
		}
		return o, ""
	}
	return uo, fmt.Sprintf(" (first, at `%s` on line %d, before the kernel: PAL104)", shortAPI(u.API), u.Pos.Line)
}

// onTPU reports whether kc is taken to run on TPU (analysis.Pass.Target),
// where the SPMD rules hold, with that target.
func onTPU(p *analysis.Pass, kc *analysis.KernelCall) (analysis.Target, bool) {
	t := p.Target(kc)
	return t, t.TPU()
}

// fails is the "with JAX 0.11 this fails" of a message; on an assumed
// TPU it is conditional: "on TPU (assumed), with JAX 0.11 this fails".
func fails(p *analysis.Pass, t analysis.Target) string {
	if t.Assumed {
		return "on TPU (assumed: no platform evidence), with " + version(p) + " this fails"
	}
	return "with " + version(p) + " this fails"
}

// targeted adapts a finding to its platform: on an assumed TPU an error
// is a warning (a GPU project silences it with platform = "gpu"), and the
// hover says which platform was taken and why.
func targeted(p *analysis.Pass, t analysis.Target, d analysis.Diagnostic) analysis.Diagnostic {
	if t.Assumed && (d.Severity == analysis.SeverityError || d.Severity == 0 && p.Analyzer.Severity == analysis.SeverityError) {
		d.Severity = analysis.SeverityWarning
	}
	if d.Detail != "" {
		d.Detail += "\nPlatform: " + t.Backend.String() + " (" + t.Reason + ").\n"
	}
	return d
}

// isTPU: the kernel's own markers say TPU (the kernel-configuration
// rules judge only kernels that name their platform).
func isTPU(kc *analysis.KernelCall) bool { return kc.Backend == lowering.BackendTPU }

// axisIndexCall spells an axis_index op as written: one name, or a tuple
// of names (OpFact lists those last first, the order JAX reads them in).
func axisIndexCall(op analysis.OpFact) string {
	if len(op.Axes) == 1 {
		return "lax.axis_index(\"" + op.Axes[0] + "\")"
	}
	names := make([]string, len(op.Axes))
	for i, a := range op.Axes {
		names[len(op.Axes)-1-i] = "\"" + a + "\""
	}
	return "lax.axis_index((" + strings.Join(names, ", ") + "))"
}
