package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// PAL202 reports a memory space placed on a core mesh that lacks it.
var PAL202 = &analysis.Analyzer{
	Code: "PAL202", Name: "memory-space-mesh", Severity: analysis.SeverityError,
	Doc: analysis.Doc{
		Title: "Memory space not supported by the core mesh",
		What: "A TPU memory space is placed on a core mesh with `@` (`pltpu.HBM @ mesh`, " +
			"`pltpu.VMEM((8, 128), jnp.float32) @ mesh`) and the mesh does not have it: a TensorCoreMesh takes " +
			"VMEM, SMEM, CMEM and SEMAPHORE; a ScalarSubcoreMesh VMEM_SHARED, SMEM and SEMAPHORE; a " +
			"VectorSubcoreMesh VMEM, VMEM_SHARED, SMEM and SEMAPHORE. The mesh is a constructor call, or a name " +
			"bound once to one in the same scope or the module. JAX 0.10.1 and later. Also an accumulator space on " +
			"any core mesh (`pltpu.ACC(0) @ mesh`, JAX 0.11.2 and later): no mesh takes one. `pltpu.SemaphoreType.DMA " +
			"@ mesh` is fine on every mesh. The `CoreMemorySpace(ms, mesh)` constructor is private in every JAX " +
			"version (jax._src.pallas.core only; neither jax.experimental.pallas nor its tpu module exports it), so " +
			"it is not judged.",
		Why: "CoreMemorySpace checks the pair when the expression is evaluated, on any backend and in interpret " +
			"mode: \"ValueError: Memory space hbm is not supported by mesh TensorCoreMesh(axis_name='core', num_cores=2)\".",
		Example: "scratch = pltpu.HBM((8, 128), jnp.float32) @ mesh",
		Fixed:   "scratch = pltpu.VMEM((8, 128), jnp.float32) @ mesh",
		Since:   "0.2.0",
		Scaffold: `import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=2)
` + analysis.SnippetLine + "\n",
	},
	RunFile:  runPAL202,
	Triggers: [][]string{{"TensorCoreMesh"}, {"create_tensorcore_mesh"}, {"ScalarSubcoreMesh"}, {"VectorSubcoreMesh"}},
}

func runPAL202(p *analysis.Pass, s *ir.Summary) {
	if p.Version.Less(lowering.CoreMeshSpacesSince) {
		return // no `@` with meshes yet (a TypeError, or 0.10.0's core types)
	}
	fileScopes(s, func(sc *scopeView) {
		sc.exprs(func(e *ir.Expr) {
			if e.Kind != ir.ExBinOp || e.Op() != "@" || len(e.Args) != 2 {
				return
			}
			ms, ok := memorySpaceOf(sc, e.Args[0])
			if !ok {
				if mxu, ok := accSpaceOf(sc, e.Args[0]); ok && !p.Version.Less(lowering.AccSince) {
					if kind, repr, ok := coreMeshOf(p, sc, e.Args[1]); ok {
						o := lowering.AccMeshOutcome(mxu, repr)
						p.Report(analysis.Diagnostic{
							Location: analysis.Locate(s, e.Span),
							Message: fmt.Sprintf("an accumulator space on a %s, which takes only %s; with %s this fails: %s",
								kind, strings.Join(lowering.MeshSpaces(kind), ", "), version(p), quoteError(o)),
							Detail: detail(p, o), JAXError: jaxError(o),
						})
					}
				}
				return
			}
			kind, repr, ok := coreMeshOf(p, sc, e.Args[1])
			if !ok || lowering.MeshSupports(kind, ms) {
				return
			}
			o := lowering.MemorySpaceMeshOutcome(ms, repr)
			p.Report(analysis.Diagnostic{
				Location: analysis.Locate(s, e.Span),
				Message: fmt.Sprintf("memory space %s on a %s, which takes only %s; with %s this fails: %s",
					ms, kind, strings.Join(lowering.MeshSpaces(kind), ", "), version(p), quoteError(o)),
				Detail: detail(p, o), JAXError: jaxError(o),
			})
		})
	})
}

// memorySpaceOf reads `pltpu.HBM`, `pltpu.MemorySpace.HBM` or
// `pltpu.VMEM(shape, dtype)` (a ref in that space).
func memorySpaceOf(sc *scopeView, e *ir.Expr) (string, bool) {
	e = sc.value(e)
	if e != nil && e.Kind == ir.ExCall {
		e = e.X
	}
	name, ok := strings.CutPrefix(sc.qual(e), "jax.experimental.pallas.tpu.")
	if !ok {
		return "", false
	}
	name = strings.TrimPrefix(name, "MemorySpace.")
	return name, lowering.IsTPUMemorySpace(name)
}

// accSpaceOf reads `pltpu.ACC(mxu_id)`, the accumulator space itself (not
// a ref built from it, whose own checks run first); mxu is -1 when not
// literal.
func accSpaceOf(sc *scopeView, e *ir.Expr) (mxu int, ok bool) {
	e = sc.value(e)
	if e == nil || e.Kind != ir.ExCall || sc.qual(e.X) != "jax.experimental.pallas.tpu.ACC" {
		return 0, false
	}
	if m := sc.value(callArg(e, 0, "mxu_id")); m != nil && m.Kind == ir.ExConst && m.Const().Kind == ir.ConstInt {
		return int(m.Const().I), true
	}
	return -1, true
}

// coreMeshOf reads a core mesh constructor call, and the mesh's repr
// where JAX's is known: TensorCoreMesh with literal fields, 0.11 and later.
func coreMeshOf(p *analysis.Pass, sc *scopeView, e *ir.Expr) (lowering.CoreMeshKind, string, bool) {
	e = sc.value(e)
	if e == nil || e.Kind != ir.ExCall {
		return "", "", false
	}
	ctor := sc.qual(e.X)
	kind, ok := lowering.CoreMeshConstructors[ctor]
	if !ok {
		return "", "", false
	}
	if api, ok := lowering.Lookup(ctor); ok && api.StatusAt(p.Version) == lowering.StatusNotYet {
		return "", "", false // an AttributeError first (pltpu.TensorCoreMesh before 0.11)
	}
	if kind != lowering.TensorCoreMesh || p.Version.Less(lowering.V(0, 11, 0)) {
		return kind, "", true
	}
	// TensorCoreMesh's fields are keyword-only; create_tensorcore_mesh
	// takes the axis name first.
	pos := -1
	if sc.qual(e.X) != "jax.experimental.pallas.tpu.TensorCoreMesh" {
		pos = 0
	}
	axis, n := callArg(e, pos, "axis_name"), callArg(e, -1, "num_cores")
	if axis == nil || n == nil || axis.Kind != ir.ExConst || n.Kind != ir.ExConst ||
		axis.Const().Kind != ir.ConstStr || n.Const().Kind != ir.ConstInt || strings.ContainsAny(axis.Const().S, "'\\") {
		return kind, "", true
	}
	return kind, "TensorCoreMesh(axis_name='" + axis.Const().S + "', num_cores=" + strconv.FormatInt(n.Const().I, 10) + ")", true
}

// callArg is a call's keyword argument, else its i-th positional one.
func callArg(call *ir.Expr, i int, name string) *ir.Expr {
	for _, kw := range call.Kw() {
		if kw.Name == name {
			return kw.Value
		}
	}
	for j, a := range call.Args {
		if a.Kind == ir.ExStarred {
			return nil // later positions are not known
		}
		if j == i {
			return a
		}
	}
	return nil
}
