package rules

import (
	"fmt"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL203 reports accumulator refs that check_accumulator_ref rejects.
var PAL203 = &analysis.Analyzer{
	Code: "PAL203", Name: "accumulator-ref", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Accumulator ref that the target cannot hold",
		What: "`pltpu.ACC(mxu_id)(shape, dtype)` (JAX 0.11.2 and later) with a literal shape of rank < 2, or a dtype other " +
			"than jnp.float32/jnp.int32 (a dtype string such as \"float32\" is rejected too: JAX compares with the " +
			"scalar types). With a target chip configured (`tpu-chip`, e.g. \"v6e\", \"v7x\"), also a chip without " +
			"accumulators (every chip before TPU7), an mxu_id outside the chip's MXUs, a minor dimension other than " +
			"its MXU column size, or major dimensions whose product is not a multiple of its sublanes. Without " +
			"`tpu-chip` the chip checks stay silent.",
		Why: "AccMemorySpace checks the ref when it is built, on any backend and in interpret mode: \"ValueError: " +
			"Acc ref must be at least 2D, got shape (256,)\", \"Acc ref dtype must be float32 or int32, got ...\", " +
			"\"Accumulators are not available on TPU v6e\", ...",
		Example:    "acc = pltpu.ACC(0)((256,), jnp.float32)",
		Fixed:      "acc = pltpu.ACC(0)((8, 256), jnp.float32)",
		Since:      "0.2.0",
		JAXVersion: "0.12",
		Scaffold: `import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

` + analysis.SnippetLine + "\n",
	},
	RunFile:  runPAL203,
	Triggers: [][]string{{"ACC"}},
}

func runPAL203(p *analysis.Pass, s *ir.Summary) {
	if p.Version.Less(lowering.AccSince) {
		return
	}
	chip := ""
	if p.Options != nil {
		chip, _ = lowering.ParseChip(p.Options.TPUChip)
	}
	fileScopes(s, func(sc *scopeView) {
		sc.exprs(func(e *ir.Expr) {
			ref, ok := accRef(sc, e)
			if !ok {
				return
			}
			o, bad := lowering.AccRefOutcome(p.Version, ref, chip)
			if !bad {
				return
			}
			on := ""
			if chip != "" && strings.Contains(o.Message, chip) || strings.HasPrefix(o.Message, "mxu_id") ||
				strings.HasPrefix(o.Message, "The ") {
				on = " on the configured chip (tpu-chip = \"" + chip + "\")"
			}
			p.Report(analysis.Diagnostic{
				Location: analysis.Locate(s, e.Span),
				Message:  fmt.Sprintf("accumulator ref rejected%s; with %s this fails: %s", on, version(p), quoteError(o)),
				Detail:   detail(p, o), JAXError: jaxError(o),
			})
		})
	})
}

// accRef reads `pltpu.ACC(i)(shape, dtype)`, or `acc(shape, dtype)` with
// acc bound once to pltpu.ACC(i).
func accRef(sc *scopeView, e *ir.Expr) (lowering.AccRef, bool) {
	if e.Kind != ir.ExCall || e.X == nil {
		return lowering.AccRef{}, false
	}
	space := sc.value(e.X)
	if space == nil || space.Kind != ir.ExCall || sc.qual(space.X) != "jax.experimental.pallas.tpu.ACC" {
		return lowering.AccRef{}, false
	}
	ref := lowering.AccRef{MXU: -1}
	if m := sc.value(callArg(space, 0, "mxu_id")); m != nil && m.Kind == ir.ExConst && m.Const.Kind == ir.ConstInt {
		ref.MXU = int(m.Const.I)
	}
	ref.Shape = intTuple(sc, callArg(e, 0, "shape"))
	ref.Dtype, ref.DtypeRepr = dtypeOf(sc, callArg(e, 1, "dtype"))
	return ref, true
}

// intTuple reads a literal tuple or list of ints (names bound once to
// ints count); nil when any entry is not known.
func intTuple(sc *scopeView, e *ir.Expr) []int {
	e = sc.value(e)
	if e == nil || e.Kind != ir.ExTuple && e.Kind != ir.ExList {
		return nil
	}
	out := []int{}
	for _, a := range e.Args {
		a = sc.value(a)
		if a == nil || a.Kind != ir.ExConst || a.Const.Kind != ir.ConstInt {
			return nil
		}
		out = append(out, int(a.Const.I))
	}
	return out
}

// dtypeOf names a dtype argument and says how Python prints it:
// jnp.float32 is float32, printed <class 'jax.numpy.float32'>; a string
// is never the scalar type JAX compares with.
func dtypeOf(sc *scopeView, e *ir.Expr) (name, repr string) {
	e = sc.value(e)
	if e == nil {
		return "", ""
	}
	if e.Kind == ir.ExConst && e.Const.Kind == ir.ConstStr {
		return "string " + e.Const.S, e.Const.S
	}
	q := sc.qual(e)
	for _, mod := range []string{"jax.numpy.", "numpy."} {
		if n, ok := strings.CutPrefix(q, mod); ok && n != "" && !strings.Contains(n, ".") {
			return n, "<class '" + mod + n + "'>"
		}
	}
	return "", ""
}
