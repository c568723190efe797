package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/ir"
	pp "github.com/pallas-ls/pallas-ls/pyparse"
)

// decorateFix is PAL101's second fix: when the bad path starts at a
// function decorated with jax.jit, put
// `@functools.partial(jax.shard_map, mesh=M, in_specs=..., out_specs=..., check_vma=False)`
// on it, below the jit decorator, so the whole jitted step runs fully
// manual. Unsafe for the same reason as the wrap.
func decorateFix(p *analysis.Pass, kc *analysis.KernelCall, bad analysis.Reach) (analysis.SuggestedFix, bool) {
	def, deco := bad.JitDef, bad.JitDeco
	if def == nil || deco == nil || def.File == nil || !p.Version.AtLeast(shardMapSince) {
		return analysis.SuggestedFix{}, false
	}
	n := 0
	for _, prm := range def.Params {
		if prm.Kind == ir.ParamVarArgs || prm.Kind == ir.ParamKwArgs {
			return analysis.SuggestedFix{}, false
		}
		if prm.Kind == ir.ParamNormal || prm.Kind == ir.ParamPosOnly {
			n++
		}
	}
	s := def.File
	w := &wrapper{p: p, s: s, axes: deviceAxes(kc),
		t: target{file: s, meshes: moduleMeshes(kc, bad, s), bound: func(string) bool { return false }}}
	mesh, ok := w.decoratorMesh(def)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	spec, ok := w.spec()
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	jax, ok := w.alias("jax", "jax")
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	functools, ok := w.alias("functools", "functools")
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	m := s.Mapper()
	line := m.Line(deco.Span.End)
	at := m.LineStart(line + 1)
	_, indent := s.LineIndent(deco.Span.Start)
	text := fmt.Sprintf("%s@%s.partial(%s.shard_map, mesh=%s, in_specs=%s, out_specs=%s, check_vma=False)%s",
		indent, functools, jax, mesh, specs(spec, n), spec, s.Newline())
	w.edits = append(w.edits, analysis.Edit(s, pp.Span{Start: at, End: at}, text))
	title := fmt.Sprintf("Run `%s` under jax.shard_map: add @functools.partial(jax.shard_map, ...) below its jit (unsafe)", def.Name)
	return analysis.SuggestedFix{Title: title, Applicability: analysis.Unsafe, Edits: mergeInsertions(w.edits)}, true
}

// decoratorMesh is a mesh visible where the decorator is evaluated (the
// def's scope), else the context mesh.
func (w *wrapper) decoratorMesh(def *ir.FuncDef) (string, bool) {
	for _, m := range w.t.meshes {
		if m.Axes == nil || covers(m.Axes, w.axes) {
			return m.Name, true
		}
	}
	return "None", true
}

// moduleMeshes are the meshes bound at module level in the def's file, as
// seen from the kernel call or the bad path's outer call.
func moduleMeshes(kc *analysis.KernelCall, bad analysis.Reach, s *ir.Summary) []analysis.MeshRef {
	var out []analysis.MeshRef
	seen := map[string]bool{}
	add := func(ms []analysis.MeshRef) {
		for _, m := range ms {
			if !seen[m.Name] && m.Axes != nil && s.Binds(m.Name) {
				seen[m.Name] = true
				out = append(out, m)
			}
		}
	}
	if bad.Outer != nil && bad.Outer.File == s {
		add(bad.Outer.Meshes)
	}
	if kc.File == s {
		add(kc.Meshes)
	}
	return out
}
