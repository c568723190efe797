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
			"`tpu-chip` the chip checks stay silent. Also `acc = jax.empty_ref(jax.ShapeDtypeStruct(shape, dtype), " +
			"memory_space=pltpu.ACC(i))` in a kernel this file passes to a Mosaic pallas_call (no interpret=) when " +
			"the kernel reads acc: nothing checks it until Mosaic lowers the kernel, which first rejects a chip " +
			"without accumulators, then asserts mxu_id, shape (rank < 2 included) and minor dimension with bare " +
			"asserts, and only then checks the dtype (a dtype string is fine here). Without `tpu-chip` a rank < 2 " +
			"or a wrong dtype is reported as failing on every chip, its error unnamed; a ref nothing reads is " +
			"dropped before lowering and stays silent.",
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
	emptyRefs(s, func(sc *scopeView, e *ir.Expr, ref lowering.AccRef) {
		o, bad := lowering.AccEmptyRefOutcome(p.Version, ref, chip)
		if !bad {
			return
		}
		msg := "accumulator ref allocated with jax.empty_ref fails to lower on every TPU chip (rank < 2 or a dtype " +
			"other than float32/int32); the error depends on the chip: set tpu-chip to predict it"
		if o.Error != "" {
			msg = fmt.Sprintf("accumulator ref allocated with jax.empty_ref rejected on the configured chip (tpu-chip = \"%s\"); with %s lowering the kernel fails: %s",
				chip, version(p), quoteError(o))
		}
		p.Report(analysis.Diagnostic{
			Location: analysis.Locate(s, e.Span),
			Message:  msg,
			Detail:   detail(p, o), JAXError: jaxError(o),
		})
	})
}

// emptyRefs visits `name = jax.empty_ref(jax.ShapeDtypeStruct(shape,
// dtype), memory_space=pltpu.ACC(i))` in the body of a def that this file
// passes by name to a pallas_call lowered by Mosaic (no interpret=, no
// compiler params other than pltpu's), when the name is read afterwards
// in the def or a def nested in it: a ref nothing reads is dead code that
// tracing drops before lowering, and only Mosaic's lowering checks it.
func emptyRefs(s *ir.Summary, visit func(sc *scopeView, e *ir.Expr, ref lowering.AccRef)) {
	kernels := map[string]int{}
	fileScopes(s, func(sc *scopeView) {
		sc.exprs(func(e *ir.Expr) {
			if e.Kind != ir.ExCall || sc.qual(e.X) != "jax.experimental.pallas.pallas_call" || len(e.Args) == 0 ||
				e.Args[0].Kind != ir.ExName {
				return
			}
			mosaic := true
			for _, kw := range e.Kw() {
				switch {
				case kw.Name == "" || kw.Name == "interpret" || kw.Name == "backend":
					mosaic = false
				case kw.Name == "compiler_params":
					v := sc.value(kw.Value)
					if v == nil || v.Kind != ir.ExCall || !strings.HasPrefix(sc.qual(v.X), "jax.experimental.pallas.tpu.") {
						mosaic = false
					}
				}
			}
			if mosaic && kernels[e.Args[0].Name] >= 0 {
				kernels[e.Args[0].Name]++
			} else {
				kernels[e.Args[0].Name] = -1
			}
		})
	})
	defs := map[string]int{}
	for _, d := range s.Defs {
		defs[d.Name]++
	}
	module := newScopeView(s, s.Body, nil, nil)
	for _, d := range s.Defs {
		if d.Lambda || kernels[d.Name] <= 0 || defs[d.Name] != 1 {
			continue
		}
		sc := newScopeView(s, d.Body, d, module)
		ir.WalkStmts(d.Body, func(st *ir.Stmt) {
			if st.Kind != ir.StAssign || st.Aug || len(st.Targets) != 1 || st.Targets[0].Kind != ir.ExName {
				return
			}
			e := st.Value
			if e == nil || e.Kind != ir.ExCall || sc.qual(e.X) != "jax.empty_ref" || !readIn(s, d, st.Targets[0].Name, st) {
				return
			}
			var space *ir.Expr
			for _, kw := range e.Kw() {
				if kw.Name == "memory_space" {
					space = sc.value(kw.Value)
				}
			}
			if space == nil || space.Kind != ir.ExCall || sc.qual(space.X) != "jax.experimental.pallas.tpu.ACC" {
				return
			}
			ty := sc.value(callArg(e, 0, "ty"))
			if ty == nil || ty.Kind != ir.ExCall || sc.qual(ty.X) != "jax.ShapeDtypeStruct" {
				return
			}
			ref := lowering.AccRef{MXU: -1}
			if m := sc.value(callArg(space, 0, "mxu_id")); m != nil && m.Kind == ir.ExConst && m.Const().Kind == ir.ConstInt {
				ref.MXU = int(m.Const().I)
			}
			ref.Shape = intTuple(sc, callArg(ty, 0, "shape"))
			ref.Dtype, _ = dtypeOf(sc, callArg(ty, 1, "dtype"))
			ref.Dtype = strings.TrimPrefix(ref.Dtype, "string ") // a numpy dtype: a string names it too
			visit(sc, e, ref)
		})
	}
}

// readIn says whether name is read in def d, or in a def nested in it,
// other than by the statement that binds it and as an assignment target.
func readIn(s *ir.Summary, d *ir.FuncDef, name string, bind *ir.Stmt) bool {
	found := false
	look := func(e *ir.Expr) {
		walkExpr(e, func(x *ir.Expr) {
			if x.Kind == ir.ExName && x.Name == name {
				found = true
			}
		})
	}
	for _, f := range s.Defs {
		if f != d && (f.Span.Start < d.Span.Start || f.Span.End > d.Span.End) {
			continue
		}
		ir.WalkStmts(f.Body, func(st *ir.Stmt) {
			if st == bind {
				return
			}
			for _, t := range st.Targets {
				if t.Kind == ir.ExSubscript {
					for _, a := range t.Args {
						look(a) // acc[i] = v writes acc, reads i
					}
				}
			}
			look(st.Value)
			look(st.Cond)
			for _, it := range st.Items {
				look(it.Ctx)
			}
		})
	}
	return found
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
	if m := sc.value(callArg(space, 0, "mxu_id")); m != nil && m.Kind == ir.ExConst && m.Const().Kind == ir.ConstInt {
		ref.MXU = int(m.Const().I)
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
		if a == nil || a.Kind != ir.ExConst || a.Const().Kind != ir.ConstInt {
			return nil
		}
		out = append(out, int(a.Const().I))
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
	if e.Kind == ir.ExConst && e.Const().Kind == ir.ConstStr {
		return "string " + e.Const().S, e.Const().S
	}
	q := sc.qual(e)
	for _, mod := range []string{"jax.numpy.", "numpy."} {
		if n, ok := strings.CutPrefix(q, mod); ok && n != "" && !strings.Contains(n, ".") {
			return n, "<class '" + mod + n + "'>"
		}
	}
	return "", ""
}
