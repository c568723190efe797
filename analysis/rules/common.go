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
			what = "lax.axis_index(\"" + strings.Join(op.Axes, "") + "\") on a device axis"
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
		s = "lax.axis_index(\"" + strings.Join(op.Axes, "") + "\")"
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
