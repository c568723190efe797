package analysis

import (
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Shard_map applications (PAL106, PAL107): what JAX checks when a
// shard_map-wrapped function is called, before it traces the body. Each
// application site on a path from a concrete entry is recorded once, in
// the first context met, with what is known of its mesh, of the context
// (inside another shard_map's body?) and of how its in_specs meet its
// arguments. The rules decide from lowering's data which of it fails at
// the configured version; anything not visible in the source leaves the
// fact out (unknown is silent).

// smKey identifies an application: the shard_map call and the call
// applying it (a shard_map applied in another's body is reached through
// the outer one's application site).
type smKey struct{ sm, site *ir.Expr }

// smUse is one recorded application.
type smUse struct {
	sp    *smSpec
	site  *ir.Expr // the call applying the shard_mapped function
	file  *ir.Summary
	outer *smSpec // the enclosing shard_map (jax.shard_map or the experimental one), nil if none
	// outerEagerPartial: outer was applied eagerly and is not known to
	// be manual over every mesh axis.
	outerEagerPartial bool
	// mesh is mesh= when it is a mesh made by a constructor.
	mesh *vMesh
	// fullManual: the shard_map is manual over every mesh axis (known).
	fullManual bool
	// eagerPartial: applied eagerly (not under any trace) and known to
	// leave some axis of its concrete mesh automatic.
	eagerPartial bool
	// specArg and specAxis: a literal in_specs ("in") or out_specs ("out")
	// naming an axis that axis_names leaves automatic, and that axis.
	specArg, specAxis string
	// spec and input are the first mismatching argument's in_specs entry
	// (normalized to its rank) and sharding spec, as JAX prints them;
	// empty when no argument is known to mismatch, or when some argument
	// or spec is not known well enough to tell which check fails first.
	spec, input string
	rs          *reachState
}

// shardMapApplied records the application of sp to a at site.
func (in *interp) shardMapApplied(sp *smSpec, a args, site *ir.Expr) {
	c := in.cur
	if c == nil || site == nil || sp == nil || c.ExpectRaise || c.BoundAny || len(c.Bound) > 0 || in.batched > 0 {
		return
	}
	if sp.API != "jax.shard_map" && sp.API != "jax.experimental.shard_map.shard_map" {
		return
	}
	if c.Kind != ctxPlain && c.Kind != ctxShardMap {
		return
	}
	if len(in.stack) == 0 || in.stack[0].library {
		return
	}
	u := &smUse{sp: sp, site: site, file: in.file}
	if m, ok := sp.MeshVal.(*vMesh); ok && m.Concrete {
		u.mesh = m
	}
	if c.Kind == ctxShardMap && c.SM != nil && (c.SM.API == "jax.shard_map" || c.SM.API == "jax.experimental.shard_map.shard_map") {
		u.outer = c.SM
		full := c.SM.AllManual || c.SM.MeshAxes != nil && sameSet(c.SM.Manual, c.SM.MeshAxes)
		u.outerEagerPartial = len(in.smEager) > 0 && in.smEager[len(in.smEager)-1] && !full
	}
	if u.mesh != nil && u.mesh.Axes != nil {
		u.fullManual = sp.AllManual && len(sp.Manual) == 0 || sameSet(sp.Manual, u.mesh.Axes)
		if c.Kind == ctxPlain && !c.MeshLegacy { // `with mesh:` not run on the venvs
			u.spec, u.input = in.specMismatch(sp, u.mesh, a)
		}
	}
	if u.mesh != nil && u.mesh.Axes != nil && !sp.AllManual && sp.Manual != nil && !u.fullManual {
		u.eagerPartial = c.Kind == ctxPlain && !c.Traced && !c.TraceOnly
	}
	u.specArg, u.specAxis = specsNameAutomatic(sp)
	if u.outer == nil && u.spec == "" && !u.eagerPartial && u.specArg == "" {
		return // nothing either rule reads
	}
	// An entry logs every application it meets, even one an earlier
	// entry recorded: when that entry's run is taken back (a resume), a
	// replay of this one's log must still report it.
	if _, seen := in.smaps[smKey{sp.Site, site}]; seen && in.h.log == nil {
		return
	}
	u.rs = in.reach()
	in.addSmap(u)
	if in.h.log != nil {
		in.h.log.smaps = append(in.h.log.smaps, u)
	}
}

func (in *interp) addSmap(u *smUse) {
	k := smKey{u.sp.Site, u.site}
	if _, seen := in.smaps[k]; seen {
		return
	}
	in.h.journal.smaps.add(k, u)
	in.smapOrder = append(in.smapOrder, u)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || x == y
		}
		if !found {
			return false
		}
	}
	return true
}

// specMismatch finds an argument that is a fresh, unsharded array (a
// jnp.ones/zeros/empty/full of literal shape) whose in_specs entry names
// mesh axes: its sharding spec is all None, the entry's is not. It
// answers only when every check shard_map makes before that comparison
// is known to pass: out_specs and in_specs literal PartitionSpecs naming
// mesh axes at most once each, every argument either such an array whose
// shape the spec fits (rank, divisibility by the mesh's literal shape) or
// given an empty spec.
func (in *interp) specMismatch(sp *smSpec, m *vMesh, a args) (spec, input string) {
	if len(m.Shape) != len(m.Axes) || a.opaque || len(a.kw) > 0 || len(a.pos) == 0 {
		return "", ""
	}
	// The specs may name the manual axes only (_check_specs).
	sizes := map[string]int{}
	for i, ax := range m.Axes {
		if sp.AllManual || len(sp.Manual) == 0 || slices.Contains(sp.Manual, ax) {
			sizes[ax] = m.Shape[i]
		}
	}
	if !specTreeOK(sp.OutSpecs, sizes) {
		return "", ""
	}
	var specs []value
	switch s := sp.InSpecs.(type) {
	case *vExtCall:
		if len(a.pos) != 1 {
			return "", ""
		}
		specs = []value{s}
	case *vSeq:
		if len(s.Items) != len(a.pos) {
			return "", ""
		}
		specs = s.Items
	default:
		return "", ""
	}
	for i, arg := range a.pos {
		entries, ok := pspecEntries(specs[i], sizes)
		if !ok {
			return "", ""
		}
		named := false
		for _, e := range entries {
			named = named || len(e) > 0
		}
		if !named {
			continue // P() or P(None, ...) meets an unsharded array's spec
		}
		shape, ok := freshArrayShape(arg)
		if !ok || len(entries) > len(shape) {
			return "", ""
		}
		for j, e := range entries {
			n := 1
			for _, ax := range e {
				if ax != "(" { // the tuple mark
					n *= sizes[ax]
				}
			}
			if n == 0 || shape[j]%n != 0 {
				return "", ""
			}
		}
		if spec == "" {
			spec, input = renderPSpec(entries, len(shape)), renderPSpec(nil, len(shape))
		}
	}
	return spec, input
}

// freshArrays are the constructors whose result is one device's,
// unsharded array (without a device= or out_sharding= argument).
// A jax.ShapeDtypeStruct without sharding= stands for such an array
// (jit(f).lower(...)).
var freshArrays = map[string]bool{"jax.numpy.ones": true, "jax.numpy.zeros": true, "jax.numpy.empty": true, "jax.numpy.full": true, "jax.ShapeDtypeStruct": true}

func freshArrayShape(v value) ([]int, bool) {
	c, ok := v.(*vExtCall)
	if !ok || !freshArrays[canonicalArrayAPI(c.Qual)] {
		return nil, false
	}
	for k := range c.Kw {
		if k != "shape" && k != "dtype" && k != "fill_value" {
			return nil, false
		}
	}
	limit := 2 // shape, dtype (ShapeDtypeStruct's third is sharding)
	if c.Qual == "jax.numpy.full" {
		limit = 3 // shape, fill_value, dtype
	}
	if len(c.Args) > limit {
		return nil, false
	}
	seq, ok := arrayShape(c)
	if !ok {
		return nil, false
	}
	var out []int
	for _, it := range seq.Items {
		k, ok := it.(*vConst)
		if !ok || k.C.Kind != ir.ConstInt || k.C.I <= 0 {
			return nil, false
		}
		out = append(out, int(k.C.I))
	}
	return out, true
}

// pspecEntries reads a literal PartitionSpec: per dimension the mesh axes
// it names (none for None). Every name must be an axis of the mesh, and
// no axis named twice.
func pspecEntries(v value, sizes map[string]int) ([][]string, bool) {
	c, ok := pspecCall(v)
	if !ok {
		return nil, false
	}
	seen := map[string]bool{}
	var out [][]string
	for _, it := range c.Args {
		if isNone(it) {
			out = append(out, nil)
			continue
		}
		names, ok := strList(it)
		if s, isSeq := it.(*vSeq); !ok || len(names) == 0 || isSeq && len(s.Items) < 2 {
			return nil, false // how JAX prints a 1-tuple entry is not read
		}
		for _, n := range names {
			if _, ok := sizes[n]; !ok || seen[n] {
				return nil, false
			}
			seen[n] = true
		}
		if _, isSeq := it.(*vSeq); isSeq {
			names = append([]string{"("}, names...) // a tuple entry, rendered as one
		}
		out = append(out, names)
	}
	return out, true
}

// specTreeOK: v is a literal PartitionSpec or a tuple of them (out_specs
// passes _check_specs).
func specTreeOK(v value, sizes map[string]int) bool {
	if s, ok := v.(*vSeq); ok {
		for _, it := range s.Items {
			if !specTreeOK(it, sizes) {
				return false
			}
		}
		return len(s.Items) > 0
	}
	_, ok := pspecEntries(v, sizes)
	return ok
}

// renderPSpec prints a spec as JAX does after normalizing it to rank n:
// P('x', None), P(('x', 'y'), None), P('x',), P(None, None).
func renderPSpec(entries [][]string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = "None"
		if i >= len(entries) || len(entries[i]) == 0 {
			continue
		}
		e := entries[i]
		if e[0] == "(" {
			q := make([]string, len(e)-1)
			for j, ax := range e[1:] {
				q[j] = "'" + ax + "'"
			}
			parts[i] = "(" + strings.Join(q, ", ") + ")"
			if len(q) == 1 {
				parts[i] = "(" + q[0] + ",)"
			}
			continue
		}
		parts[i] = "'" + e[0] + "'"
	}
	s := strings.Join(parts, ", ")
	if n == 1 {
		s += ","
	}
	return "P(" + s + ")"
}

// smapFacts renders the recorded applications.
func (in *interp) smapFacts() []*ShardMapApply {
	out := make([]*ShardMapApply, 0, len(in.smapOrder))
	for _, u := range in.smapOrder {
		f := &ShardMapApply{Location: Locate(u.file, u.site.Span), API: u.sp.API, FullManual: u.fullManual, EagerPartial: u.eagerPartial,
			SpecArg: u.specArg, SpecAxis: u.specAxis,
			Spec: u.spec, InputSpec: u.input, Reach: u.rs.render()}
		if u.sp.File != nil && u.sp.Site != nil {
			f.ShardMap = Locate(u.sp.File, u.sp.Site.Span)
			if e := kwOrArg(u.sp.Site, "mesh", meshArgPos(u.sp.API)); e != nil {
				l := Locate(u.sp.File, e.Span)
				f.MeshArg = &l
			}
			if e := kwOrArg(u.sp.Site, "in_specs", inSpecsArgPos(u.sp.API)); e != nil {
				l := Locate(u.sp.File, e.Span)
				f.InSpecsArg = &l
			}
		}
		if u.outer != nil {
			f.OuterAPI, f.OuterEagerPartial = u.outer.API, u.outerEagerPartial
			if u.outer.File != nil && u.outer.Site != nil {
				l := Locate(u.outer.File, u.outer.Site.Span)
				f.Outer = &l
			}
		}
		if m := u.mesh; m != nil {
			f.Mesh = &MeshFact{Axes: m.Axes, Shape: m.Shape, TypesDefault: m.TypesDefault, TypesExplicit: m.TypesExplicit}
		}
		out = append(out, f)
	}
	return out
}

// meshArgPos and inSpecsArgPos: where the experimental shard_map takes
// mesh and in_specs positionally (f, mesh, in_specs, out_specs); the new
// one takes them by keyword only (-1).
func meshArgPos(api string) int {
	if api == "jax.experimental.shard_map.shard_map" {
		return 1
	}
	return -1
}

func inSpecsArgPos(api string) int {
	if api == "jax.experimental.shard_map.shard_map" {
		return 2
	}
	return -1
}

// kwOrArg is the expression of keyword kw of call e, or of its
// positional argument pos (-1: none).
func kwOrArg(e *ir.Expr, kw string, pos int) *ir.Expr {
	if e == nil || e.Kind != ir.ExCall {
		return nil
	}
	for _, k := range e.Kw() {
		if k.Name == kw {
			return k.Value
		}
	}
	if pos >= 0 && pos < len(e.Args) {
		return e.Args[pos]
	}
	return nil
}

// specsNameAutomatic finds, in a shard_map whose manual axes are a
// literal set that is not every axis, a spec naming an axis outside that
// set: in_specs first, then out_specs, as jax.shard_map checks them
// (_check_specs). Only trees of literal PartitionSpecs are read (any other
// leaf is another error); "" when none is known.
func specsNameAutomatic(sp *smSpec) (arg, axis string) {
	if sp.AllManual || sp.Manual == nil {
		return "", ""
	}
	for _, c := range []struct {
		arg  string
		tree value
	}{{"in", sp.InSpecs}, {"out", sp.OutSpecs}} {
		if c.tree == nil {
			continue
		}
		names, ok := specTreeAxes(c.tree, 0)
		if !ok {
			return "", ""
		}
		for _, n := range names {
			if !slices.Contains(sp.Manual, n) {
				return c.arg, n
			}
		}
	}
	return "", ""
}

// specTreeAxes lists the axis names a literal PartitionSpec, or a literal
// sequence of them, names, in order.
func specTreeAxes(v value, depth int) ([]string, bool) {
	if s, ok := v.(*vSeq); ok && depth < 4 {
		var out []string
		for _, it := range s.Items {
			names, ok := specTreeAxes(it, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, names...)
		}
		return out, len(s.Items) > 0
	}
	c, ok := pspecCall(v)
	if !ok {
		return nil, false
	}
	var out []string
	for _, it := range c.Args {
		if isNone(it) {
			continue
		}
		names, ok := strList(it)
		if !ok {
			return nil, false
		}
		out = append(out, names...)
	}
	return out, true
}

// isSpecQual: q names PartitionSpec (jax.P is its short spelling).
func isSpecQual(q string) bool { return q == "jax.sharding.PartitionSpec" || q == "jax.P" }

// pspecCall is v as a literal PartitionSpec(...) call without keywords.
func pspecCall(v value) (*vExtCall, bool) {
	c, ok := v.(*vExtCall)
	if !ok || !isSpecQual(c.Qual) || len(c.Kw) > 0 {
		return nil, false
	}
	return c, true
}
