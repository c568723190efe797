package analysis

import (
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// ctxKind is the SPMD situation code runs in.
type ctxKind uint8

const (
	// ctxUnknown: no caller in the workspace, or a mocked shard_map; never an error.
	ctxUnknown ctxKind = iota
	// ctxPlain: reached from a concrete entry with no SPMD context (eager or jit).
	ctxPlain
	// ctxShardMap: inside a shard_map/smap/custom_partitioning body.
	ctxShardMap
	// ctxPmap: inside jax.pmap.
	ctxPmap
	// ctxKernel: inside a Pallas kernel body, where effects are collected.
	ctxKernel
)

// smSpec describes one shard_map call: which axes it makes manual.
type smSpec struct {
	Site *ir.Expr
	File *ir.Summary
	API  string // "jax.shard_map", "jax.experimental.shard_map.shard_map", "jax.smap", ...
	// Manual lists the axes made manual; nil with AllManual means every mesh axis.
	Manual    []string
	AllManual bool
	// MeshAxes are the mesh's axes when known (nil = unknown).
	MeshAxes []string
	// UsesContextMesh is set when mesh= was omitted or None.
	UsesContextMesh bool
	// CheckVMA is whether the body is traced with check_vma on.
	CheckVMA vmaCheck
	// MeshVal, InSpecs and OutSpecs are the mesh, in_specs and
	// out_specs arguments' values (nil when not given).
	MeshVal, InSpecs, OutSpecs value
}

// vmaCheck is whether code is traced with JAX's check_vma on: set by the
// innermost shard_map (check_vma=, check_rep=) or smap; unknown elsewhere
// (outside any shard_map it is off, which no rule needs to tell apart).
type vmaCheck uint8

const (
	vmaUnknown vmaCheck = iota
	vmaOn
	vmaOff
)

// spmdCtx is the context of one frame.
type spmdCtx struct {
	Kind ctxKind
	// Manual is the union of manual axes of the enclosing shard_maps.
	Manual    []string
	AllManual bool
	MeshAxes  []string // known mesh axes, nil if unknown
	SM        *smSpec  // innermost shard_map
	// Multi is evidence the enclosing jit spans more than one device.
	Multi text
	// Jit describes the enclosing jit, for messages ("jax.jit(step) at a.py:3").
	Jit text
	// Mesh is the context mesh (jax.set_mesh / with mesh:).
	Mesh *vMesh
	// MeshLegacy: Mesh comes from a bare `with mesh:`, which puts a jit
	// on no more devices by itself (exec.go: meshOfContextManager).
	MeshLegacy bool
	// Bound are axis names a vmap binds here (BoundAny: some binder's
	// names are not known); Traced says the code runs under tracing (jit,
	// shard_map, vmap, lax control flow), not eagerly; ExpectRaise says it
	// runs under pytest.raises / assertRaises (collective.go).
	Bound                         []string
	BoundAny, Traced, ExpectRaise bool
	// OneDevice: the code runs past a guard that skips (or returns, or
	// raises) when there is more than one device (`if jax.device_count()
	// > 1: self.skipTest(...)`), so jax.devices() has one device here.
	OneDevice bool
	// Expects are the exception types the innermost pytest.raises /
	// assertRaises catches, when ExpectRaise and they are specific builtin
	// ones (Reach.Expects); nil for a broad catch.
	Expects []string
	// ExplicitSharded: the jit's inputs are sharded over a mesh with
	// Explicit axes (pallas_call then rejects them at trace time).
	ExplicitSharded bool
	// Scan collects kernel effects in ctxKernel.
	Scan *kernelScan
	// TraceOnly: the code is only traced, never lowered (jit(f).trace,
	// jax.make_jaxpr, jax.eval_shape).
	TraceOnly bool
	// PmapLegacy: a pmap context entered while the program had turned
	// jax_pmap_shmap_merge off (lowering.Context.PmapLegacy).
	PmapLegacy bool
	// PmapMerged: likewise, turned on (before 0.8.0 pmap is then a shard_map).
	PmapMerged bool
	// Vmapped: the code runs under jax.vmap (PAL108: core-mesh kernels
	// have no batching rule in some releases); VmapWide: some enclosing
	// vmap's batch size is known to exceed 1 (its first argument has a
	// known shape, mapped over axis 0).
	Vmapped, VmapWide bool
	// Nested: a shard_map body inside another shard_map's, whose names
	// the inner mesh need not list (collective.go binds).
	Nested bool
	// VMA is whether check_vma is on here (the innermost shard_map's).
	VMA vmaCheck
	// Unmanual are mesh axes this code is shown to run where they are not
	// manual, in a context otherwise unknown (a library entry's): it
	// shards over them (a jit's in_shardings/out_shardings, or
	// with_sharding_constraint; not device_put, which JAX runs there),
	// which JAX refuses inside a shard_map that makes them manual.
	// UnmanualWhy is the first such call. A shard_map body starts without
	// them.
	// UnmanualSyms are such axes named by symbols (symbols.go), whatever
	// axes those are.
	Unmanual     []string
	UnmanualSyms []value
	UnmanualWhy  text
	// cachedKey caches key(); contexts are copied before they are changed, and
	// every such copy clears it.
	cachedKey string
}

// text is a description for messages that may quote source code: a
// literal, or the source of an expression, read only when the message is
// built. The interpreter's state so holds no positions or source text of
// its own, only references into the IR: after an edit that moves code
// without changing it, the same state renders the new positions and text
// (see reuse.go).
type text struct {
	lit  string
	file *ir.Summary
	site *ir.Expr
	// call renders a call as `callee(first argument, …)`.
	call      bool
	pre, post string
}

func quoted(s *ir.Summary, site *ir.Expr, call bool) text {
	if s == nil || site == nil {
		return text{}
	}
	return text{file: s, site: site, call: call}
}

func (t text) empty() bool { return t.lit == "" && t.site == nil }

func (t text) String() string {
	if t.site == nil {
		return t.lit
	}
	if t.call {
		return t.pre + describeCall(t.file, t.site) + t.post
	}
	return t.pre + describeAt(t.file, t.site) + t.post
}

// key identifies contexts the analysis treats alike, for memoisation.
func (c *spmdCtx) key() string {
	if c.cachedKey != "" {
		return c.cachedKey
	}
	var b strings.Builder
	b.WriteByte(byte('0' + c.Kind))
	b.WriteByte(byte('0' + c.VMA))
	b.WriteString(strings.Join(c.Manual, ","))
	b.WriteByte('|')
	b.WriteString(strings.Join(c.MeshAxes, ","))
	b.WriteByte('|')
	b.WriteString(strings.Join(c.Expects, ","))
	for _, f := range []bool{c.AllManual, !c.Multi.empty(), c.Mesh != nil, c.MeshLegacy, c.TraceOnly, c.BoundAny, c.Traced, c.ExpectRaise, c.ExplicitSharded, c.PmapLegacy, c.PmapMerged, c.Vmapped, c.VmapWide, c.Nested, c.OneDevice} {
		if f {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	b.WriteByte('|')
	b.WriteString(strings.Join(c.Bound, ","))
	if len(c.Unmanual) > 0 || len(c.UnmanualSyms) > 0 {
		b.WriteString("|u:")
		b.WriteString(strings.Join(c.Unmanual, ","))
		for _, v := range c.UnmanualSyms {
			b.Write(appendPtr(nil, valuePtr(v)))
		}
	}
	if c.Kind == ctxShardMap {
		b.WriteByte('|')
		b.WriteString(strings.Join(c.innerMissing(), ","))
	}
	b.Write(appendPtr(nil, unsafe.Pointer(c.Scan)))
	c.cachedKey = b.String()
	return c.cachedKey
}

// fullyManual reports whether every mesh axis is manual, or whether that is
// unknown (unknown is never an error). ok is false only when some axes are
// known not to be manual.
func (c *spmdCtx) fullyManual() (ok bool, missing []string) {
	if c.AllManual || c.MeshAxes == nil {
		return true, nil
	}
	have := map[string]bool{}
	for _, a := range c.Manual {
		have[a] = true
	}
	for _, a := range c.MeshAxes {
		if !have[a] {
			missing = append(missing, a)
		}
	}
	return len(missing) == 0, missing
}

// innerMissing lists the mesh axes the innermost shard_map leaves
// automatic by itself (nil when it makes every axis manual, or when that
// is not known).
func (c *spmdCtx) innerMissing() []string {
	sp := c.SM
	if sp == nil || sp.AllManual || c.MeshAxes == nil {
		return nil
	}
	var missing []string
	for _, a := range c.MeshAxes {
		if !slices.Contains(sp.Manual, a) {
			missing = append(missing, a)
		}
	}
	return missing
}

// enterShardMap returns the context inside a shard_map body.
func (c *spmdCtx) enterShardMap(sp *smSpec) *spmdCtx {
	n := *c
	n.cachedKey = "" // the copy will change
	n.Kind = ctxShardMap
	n.SM = sp
	n.Unmanual, n.UnmanualSyms, n.UnmanualWhy = nil, nil, text{}
	n.VMA = sp.CheckVMA // the innermost shard_map sets config._check_vma
	n.Traced = true
	mesh := sp.MeshAxes
	if mesh == nil && sp.UsesContextMesh && c.Mesh != nil {
		mesh = c.Mesh.Axes
	}
	if mesh == nil && c.Kind == ctxShardMap {
		mesh = c.MeshAxes
	}
	n.MeshAxes = mesh
	manual := sp.Manual
	all := sp.AllManual
	if c.Kind == ctxShardMap {
		// Nested shard_maps compose their manual axes.
		n.Nested = true
		all = all || c.AllManual
		manual = unionStrings(c.Manual, manual)
	}
	n.Manual, n.AllManual = manual, all
	if all && mesh != nil {
		n.Manual = mesh
	}
	return &n
}

// withUnmanual returns c, or a copy of it, that also records axes as
// not manual here, shown by the call why (in an unknown context only:
// elsewhere the context already says which axes are manual). Symbolic
// axes (symbols.go) are recorded in plain code too, where nothing else
// says which axis they are (collective.go: nonEmptyCollective).
func (c *spmdCtx) withUnmanual(axes []string, syms []value, why text) *spmdCtx {
	switch {
	case c.Kind == ctxPlain:
		axes = nil
	case c.Kind != ctxUnknown:
		return c
	}
	if len(axes) == 0 && len(syms) == 0 {
		return c
	}
	add := false
	for _, a := range axes {
		if !slices.Contains(c.Unmanual, a) {
			add = true
		}
	}
	var newSyms []value
	for _, v := range syms {
		if !slices.Contains(c.UnmanualSyms, v) && !slices.Contains(newSyms, v) {
			newSyms = append(newSyms, v)
		}
	}
	if !add && len(newSyms) == 0 {
		return c
	}
	n := *c
	n.cachedKey = "" // the copy changes
	n.Unmanual = unionStrings(c.Unmanual, axes)
	n.UnmanualSyms = append(slices.Clip(c.UnmanualSyms), newSyms...)
	if n.UnmanualWhy.empty() {
		n.UnmanualWhy = why
	}
	return &n
}

func unionStrings(a, b []string) []string {
	m := map[string]bool{}
	for _, s := range a {
		m[s] = true
	}
	for _, s := range b {
		m[s] = true
	}
	out := make([]string, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
