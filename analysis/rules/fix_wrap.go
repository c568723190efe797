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

// wrapFix rewrites the anchored kernel call `f(args)` into
// `jax.shard_map(f, mesh=M, in_specs=IN, out_specs=OUT, check_vma=False)(args)`
// (jax-semantics §1: check_vma=False keeps a plain ShapeDtypeStruct
// out_shape from failing the vma check). It is unsafe: it decides how
// inputs are split across devices, which the user must review.
//
// Where: at the kernel call, unless the same call is also reached inside a
// correct shard_map (wrapping it there would nest shard_maps on that good
// path); then at the bad path's first call from its entry point.
func wrapFix(p *analysis.Pass, kc *analysis.KernelCall, bad analysis.Reach) (analysis.SuggestedFix, bool) {
	if bad.Kind == lowering.CtxPmap {
		// Under pmap the fix is to port the pmap to shard_map, which is
		// beyond a mechanical edit.
		return analysis.SuggestedFix{}, false
	}
	t := target{call: kc.Call, file: kc.File, meshes: kc.Meshes, bound: kc.Bound, arity: kc.OutArity}
	if reachedInShardMap(kc) {
		o := bad.Outer
		if o == nil || o.Call == kc.Call {
			return analysis.SuggestedFix{}, false
		}
		t = target{call: o.Call, file: o.File, meshes: o.Meshes, bound: o.Bound}
	}
	if t.file == nil || t.call == nil || t.call.Kind != ir.ExCall || len(t.call.Kw()) > 0 {
		return analysis.SuggestedFix{}, false
	}
	for _, a := range t.call.Args {
		if a.Kind == ir.ExStarred {
			return analysis.SuggestedFix{}, false
		}
	}
	w := &wrapper{p: p, s: t.file, t: t, axes: deviceAxes(kc), fn: t.call.X.Span}
	if inner, ok := jitArgument(t.file, t.call.X); ok {
		// `jax.jit(step)(x)` reads best as `jax.jit(jax.shard_map(step, ...))(x)`.
		w.fn = inner
	}
	return w.build()
}

// jitArgument returns the span of f in a callee of the form jax.jit(f).
func jitArgument(s *ir.Summary, callee *ir.Expr) (pp.Span, bool) {
	if callee.Kind != ir.ExCall || len(callee.Args) != 1 || len(callee.Kw()) > 0 {
		return pp.Span{}, false
	}
	for _, r := range s.Refs {
		if r.Kind == ir.RefExpr && r.Span == callee.X.Span {
			if api, ok := lowering.Lookup(r.Qual); ok && api.Role == lowering.RoleJit {
				return callee.Args[0].Span, true
			}
		}
	}
	return pp.Span{}, false
}

// target is the call a wrap fix rewrites.
type target struct {
	call   *ir.Expr
	file   *ir.Summary
	meshes []analysis.MeshRef
	bound  func(string) bool
	arity  int
}

func reachedInShardMap(kc *analysis.KernelCall) bool {
	for _, r := range kc.Reaches {
		if r.Kind == lowering.CtxShardMapFull {
			return true
		}
	}
	return false
}

type wrapper struct {
	p       *analysis.Pass
	s       *ir.Summary
	t       target
	fn      pp.Span // the function expression wrapped
	axes    []string
	edits   []analysis.TextEdit
	imports map[string]bool
}

var shardMapSince = lowering.V(0, 6, 1)

func (w *wrapper) build() (analysis.SuggestedFix, bool) {
	newAPI := w.p.Version.AtLeast(shardMapSince)
	mesh, ok := w.mesh(newAPI)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	spec, ok := w.spec()
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	in := specs(spec, len(w.t.call.Args))
	out := specs(spec, max(w.t.arity, 1))
	callee := w.fn
	var head, tail string
	if newAPI {
		jax, ok := w.alias("jax", "jax")
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		head = jax + ".shard_map("
		tail = fmt.Sprintf(", mesh=%s, in_specs=%s, out_specs=%s, check_vma=False)", mesh, in, out)
	} else {
		sm, ok := w.alias("jax.experimental.shard_map.shard_map", "shard_map")
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		head = sm + "("
		tail = fmt.Sprintf(", %s, in_specs=%s, out_specs=%s, check_rep=False)", mesh, in, out)
	}
	w.edits = append(w.edits, analysis.Edit(w.s, pp.Span{Start: callee.Start, End: callee.Start}, head),
		analysis.Edit(w.s, pp.Span{Start: callee.End, End: callee.End}, tail))
	title := "Wrap the kernel call in jax.shard_map (unsafe: review mesh, in_specs and out_specs)"
	return analysis.SuggestedFix{Title: title, Applicability: analysis.Unsafe, Edits: mergeInsertions(w.edits)}, true
}

// mergeInsertions joins insertions at one offset into one edit, in the
// order they were made (a new mesh line, then the wrapper's head, when the
// call starts its statement), so no two edits of the fix overlap.
func mergeInsertions(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	at := map[int]int{}
	for _, e := range edits {
		if e.Span.Len() == 0 {
			if i, ok := at[e.Span.Start]; ok {
				if out[i].NewText != e.NewText {
					out[i].NewText += e.NewText
				}
				continue
			}
			at[e.Span.Start] = len(out)
		}
		out = append(out, e)
	}
	return out
}

// mesh picks the mesh expression: a visible mesh covering the kernel's
// axes; else a new mesh over its one axis, bound before the statement;
// else the context mesh (mesh=None, JAX >= 0.6.1).
func (w *wrapper) mesh(newAPI bool) (string, bool) {
	for _, m := range w.t.meshes {
		if m.Axes == nil || covers(m.Axes, w.axes) {
			return m.Name, true
		}
	}
	if len(w.axes) == 1 {
		return w.newMesh()
	}
	if newAPI {
		return "None", true
	}
	return "", false
}

func (w *wrapper) newMesh() (string, bool) {
	st := w.s.StatementAt(w.t.call.Span.Start)
	if st == nil {
		return "", false
	}
	jax, ok := w.alias("jax", "jax")
	if !ok {
		return "", false
	}
	name := "mesh"
	for i := 2; w.t.bound(name); i++ {
		name = "mesh" + strconv.Itoa(i)
	}
	start, indent := w.s.LineIndent(st.Span.Start)
	stmt := fmt.Sprintf("%s%s = %s.make_mesh((%s.device_count(),), (%q,))%s", indent, name, jax, jax, w.axes[0], w.s.Newline())
	w.edits = append(w.edits, analysis.Edit(w.s, pp.Span{Start: start, End: start}, stmt))
	return name, true
}

// spec is the PartitionSpec over the leading dimension: P("x"),
// P(("x", "y")) for several axes, P() when none is known.
func (w *wrapper) spec() (string, bool) {
	p, ok := w.partitionSpec()
	if !ok {
		return "", false
	}
	var quoted []string
	for _, a := range w.axes {
		quoted = append(quoted, strconv.Quote(a))
	}
	switch len(quoted) {
	case 0:
		return p + "()", true
	case 1:
		return p + "(" + quoted[0] + ")", true
	}
	return p + "((" + strings.Join(quoted, ", ") + "))", true
}

func (w *wrapper) partitionSpec() (string, bool) {
	for _, q := range []string{"jax.sharding.PartitionSpec", "jax.sharding.PartitionSpec.P"} {
		if a := w.s.AliasFor(q); a != "" {
			return a, true
		}
	}
	if w.s.Binds("P") || w.t.bound("P") {
		jax, ok := w.alias("jax", "jax")
		return jax + ".sharding.PartitionSpec", ok
	}
	w.addImport("from jax.sharding import PartitionSpec as P")
	return "P", true
}

// alias returns the local name of a module or function, importing it
// when the file has none (and the preferred name is free).
func (w *wrapper) alias(qual, preferred string) (string, bool) {
	if a := w.s.AliasFor(qual); a != "" {
		return a, true
	}
	if w.t.bound(preferred) { // a local name would shadow the new import
		return "", false
	}
	name, imp, ok := analysis.EnsureModuleAlias(w.s, qual, preferred)
	if ok && imp != nil {
		w.addEdit(*imp)
	}
	return name, ok
}

func (w *wrapper) addImport(stmt string) { w.addEdit(analysis.ImportEdit(w.s, stmt)) }

// addEdit adds an import edit once (two parts of a fix may need the same).
func (w *wrapper) addEdit(e analysis.TextEdit) {
	if w.imports == nil {
		w.imports = map[string]bool{}
	}
	if !w.imports[e.NewText] {
		w.imports[e.NewText] = true
		w.edits = append(w.edits, e)
	}
}

func specs(spec string, n int) string {
	if n <= 1 {
		return spec
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = spec
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// deviceAxes are the device-mesh axes the kernel's communication names,
// in order of first appearance; its core mesh's axes are not (a tuple
// may mix them in: lax.axis_index(("x", "core"))).
func deviceAxes(kc *analysis.KernelCall) []string {
	seen := map[string]bool{}
	var out []string
	for _, op := range kc.Ops {
		for _, a := range op.Axes {
			if a != "" && !seen[a] && !contains(kc.CoreAxes, a) {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

func covers(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}
