package analysis

import (
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// shardMap builds the shard_map (or smap) wrapper, or its decorator
// factory when no function is given, per jax-semantics §3.
func (in *interp) shardMap(api lowering.API, a args, site *ir.Expr) value {
	sp := &smSpec{Site: site, File: in.file, API: api.Name}
	old := api.Name == "jax.experimental.shard_map.shard_map"
	fn := first(a)
	rest := a.pos
	if len(rest) > 0 {
		rest = rest[1:]
	}
	sp.CheckVMA = checkVMA(api, a)
	if api.Role == lowering.RoleSmap {
		sp.UsesContextMesh = true
		if names, ok := strList(a.kw["axis_name"]); ok {
			sp.Manual = names
		}
	} else {
		mesh := a.kw["mesh"]
		if mesh == nil && old && len(rest) > 0 {
			mesh = rest[0]
		}
		sp.MeshVal, sp.InSpecs, sp.OutSpecs = mesh, a.kw["in_specs"], a.kw["out_specs"]
		if old {
			if sp.InSpecs == nil && len(rest) > 1 {
				sp.InSpecs = rest[1]
			}
			if sp.OutSpecs == nil && len(rest) > 2 {
				sp.OutSpecs = rest[2]
			}
		}
		switch m := mesh.(type) {
		case *vMesh:
			sp.MeshAxes = m.Axes
		case nil:
			sp.UsesContextMesh = true
		case *vConst:
			sp.UsesContextMesh = m.C.Kind == ir.ConstNone
		}
		sp.AllManual = true
		if names, ok := axisSet(a.kw["axis_names"]); ok {
			if len(names) > 0 { // an empty set means every axis, as omitted
				sp.AllManual, sp.Manual = false, names
			}
		} else if a.kw["axis_names"] != nil && !isNone(a.kw["axis_names"]) {
			// axis_names given but not literal: manual axes unknown.
			sp.MeshAxes, sp.UsesContextMesh = nil, false
		}
		if auto, ok := axisSet(a.kw["auto"]); ok && len(auto) > 0 {
			sp.AllManual = false
			if sp.MeshAxes != nil {
				sp.Manual = minus(sp.MeshAxes, auto)
			} else {
				sp.UsesContextMesh = false
			}
		}
	}
	if isUnknown(fn) && (api.Role == lowering.RoleSmap || len(a.pos) == 0) {
		return &vShardMapFactory{Spec: sp}
	}
	return &vShardMapped{Fn: fn, Spec: sp}
}

// checkVMA reads whether the shard_map traces its body with check_vma on
// (lowering/vma.go): jax.shard_map's check_vma= and the old shard_map's
// check_rep= (fifth positional) default to True; jax.smap always is. The
// other API's keyword is a TypeError before any tracing: unknown.
func checkVMA(api lowering.API, a args) vmaCheck {
	if api.Role == lowering.RoleSmap {
		return vmaOn
	}
	kw, other := "check_vma", "check_rep"
	if api.Name == "jax.experimental.shard_map.shard_map" {
		kw, other = other, kw
	}
	if _, bad := a.kw[other]; bad {
		return vmaUnknown
	}
	v, ok := a.kw[kw]
	if !ok && kw == "check_rep" && len(a.pos) > 4 {
		v, ok = a.pos[4], true
	}
	switch {
	case !ok && !a.opaque:
		return vmaOn
	case !ok:
		return vmaUnknown
	}
	if c, isConst := v.(*vConst); isConst && c.C.Kind == ir.ConstBool {
		if c.C.B {
			return vmaOn
		}
		return vmaOff
	}
	return vmaUnknown
}

func isNone(v value) bool {
	c, ok := v.(*vConst)
	return ok && c.C.Kind == ir.ConstNone
}

// axisSet reads a literal set/tuple/list/frozenset(...) of axis names.
func axisSet(v value) ([]string, bool) {
	if c, ok := v.(*vExtCall); ok && (c.Qual == "builtins.frozenset" || c.Qual == "builtins.set") {
		if len(c.Args) == 0 {
			return nil, true
		}
		v = c.Args[0]
	}
	if _, ok := v.(*vSeq); !ok {
		return nil, false
	}
	return strList(v)
}

func minus(a, b []string) []string {
	drop := map[string]bool{}
	for _, s := range b {
		drop[s] = true
	}
	var out []string
	for _, s := range a {
		if !drop[s] {
			out = append(out, s)
		}
	}
	return out
}

func meshValue(name string, a args) value {
	m := &vMesh{}
	var names value
	switch name {
	case "jax.sharding.Mesh", "jax.make_mesh", "jax.sharding.AbstractMesh", lowering.TestUtilCreateMesh:
		names = a.kw["axis_names"]
		if names == nil && len(a.pos) > 1 {
			names = a.pos[1]
		}
	}
	if name == lowering.TestUtilCreateMesh {
		// Auto axes unless axis_types is given (then unknown, as Mesh's).
		m.Axes, _ = strList(names)
		m.Shape = literalInts(argAt(a, 0, "mesh_shape"))
		if m.Shape != nil {
			m.Devices = 1
			for _, n := range m.Shape {
				m.Devices *= n
			}
		}
		m.Concrete = true
		types := a.kw["axis_types"]
		if types == nil && len(a.pos) > 3 {
			types = a.pos[3]
		}
		m.Explicit = explicitTypes(types)
		return m
	}
	if ns, ok := strList(names); ok {
		m.Axes = ns
	}
	m.Devices = meshDevices(name, a)
	m.Explicit = name == "jax.make_mesh" && a.kw["axis_types"] == nil || explicitTypes(a.kw["axis_types"])
	types := a.kw["axis_types"]
	if name == "jax.make_mesh" {
		m.Shape = literalInts(argAt(a, 0, "axis_shapes"))
		if types == nil && len(a.pos) > 2 {
			types = a.pos[2]
		}
	}
	m.TypesDefault = name == "jax.make_mesh" && (types == nil || isNone(types))
	m.Concrete = name != "jax.sharding.AbstractMesh" && (m.TypesDefault || types == nil || !mentionsType(types, "Manual"))
	if items := seqItems(types); len(items) > 0 && len(items) == len(m.Axes) {
		m.TypesExplicit = true
		for _, it := range items {
			e, ok := it.(*vExternal)
			m.TypesExplicit = m.TypesExplicit && ok && strings.HasSuffix(e.Qual, "AxisType.Explicit")
		}
	}
	return m
}

// mentionsType reports whether an axis_types= value may name AxisType.t
// (anything not a literal sequence of AxisType members may).
func mentionsType(v value, t string) bool {
	for _, it := range seqItems(v) {
		e, ok := it.(*vExternal)
		if !ok || !strings.Contains(e.Qual, "AxisType.") || strings.HasSuffix(e.Qual, "AxisType."+t) {
			return true
		}
	}
	return false
}

// literalInts reads a tuple of int literals ((4, 2)); nil otherwise.
func literalInts(v value) []int {
	s, ok := v.(*vSeq)
	if !ok {
		return nil
	}
	out := make([]int, 0, len(s.Items))
	for _, it := range s.Items {
		c, ok := it.(*vConst)
		if !ok || c.C.Kind != ir.ConstInt {
			return nil
		}
		out = append(out, int(c.C.I))
	}
	return out
}

// explicitTypes reports whether an axis_types= value names
// AxisType.Explicit: `(AxisType.Explicit,)`, `(AxisType.Explicit,) * 2`.
func explicitTypes(v value) bool {
	for _, it := range seqItems(v) {
		if e, ok := it.(*vExternal); ok && strings.HasSuffix(e.Qual, "AxisType.Explicit") {
			return true
		}
	}
	return false
}

// meshDevices reads a literal device count: make_mesh((1, 1), ...) or
// devices=[one device].
func meshDevices(name string, a args) int {
	if d, ok := deviceList(argAt(a, 0, "devices")); ok && name == "jax.sharding.Mesh" {
		return len(d.Items)
	}
	if d, ok := deviceList(a.kw["devices"]); ok {
		return len(d.Items)
	}
	if name != "jax.make_mesh" {
		return 0
	}
	shape, ok := argAt(a, 0, "axis_shapes").(*vSeq)
	if !ok {
		return 0
	}
	n := 1
	for _, it := range shape.Items {
		c, ok := it.(*vConst)
		if !ok || c.C.Kind != ir.ConstInt {
			return 0
		}
		n *= int(c.C.I)
	}
	return n
}

// deviceList is a literal list of devices, also as numpy.array(list) or
// numpy.asarray(list) (Mesh(np.array(jax.devices()[:1]), ("x",))).
func deviceList(v value) (*vSeq, bool) {
	if c, ok := v.(*vExtCall); ok && (c.Qual == "numpy.array" || c.Qual == "numpy.asarray") && len(c.Args) == 1 && len(c.Kw) == 0 {
		v = c.Args[0]
	}
	d, ok := v.(*vSeq)
	return d, ok
}

// coreMeshValue reads a chip-local mesh's axis names: axis_name(s)= of
// TensorCoreMesh / create_tensorcore_mesh / ScalarSubcoreMesh, or both
// core_axis_name= and subcore_axis_name= of VectorSubcoreMesh, given by
// keyword or position. A name argument whose value is not known makes
// the axes unknown (nil): an axis left out would be taken for a device
// axis.
func coreMeshValue(a args) value {
	var names []string
	for _, k := range []string{"axis_name", "axis_names", "core_axis_name", "subcore_axis_name"} {
		if v, ok := a.kw[k]; ok {
			ns, ok := strList(v)
			if !ok {
				return &vCoreMesh{}
			}
			names = append(names, ns...)
		}
	}
	for _, v := range a.pos {
		if ns, ok := strList(v); ok {
			names = append(names, ns...)
			continue
		}
		switch v.(type) {
		case nil, *vUnknown:
			return &vCoreMesh{} // perhaps a name not known here
		}
		// anything else known (devices, a count) is not a name
	}
	return &vCoreMesh{Axes: names}
}

// shardingCall handles NamedSharding, device_put and
// with_sharding_constraint: evidence that a jit spans several devices.
func (in *interp) shardingCall(name string, a args, site *ir.Expr) value {
	switch name {
	case "jax.device_put":
		if len(a.pos) > 1 {
			// Not evidence that s's axes are not manual: JAX 0.11 runs
			// device_put to a NamedSharding over a manual axis inside a
			// shard_map.
			if s, ok := a.pos[1].(*vSharding); ok && !s.Single {
				d := s.Desc
				d.pre, d.post = "jax.device_put(..., "+d.pre, d.post+")"
				return &vShardedArray{Desc: d, Explicit: s.Explicit}
			}
		}
		return nonNone
	case "jax.lax.with_sharding_constraint":
		if in.cur.Kind == ctxPlain && in.cur.Multi.empty() && !in.cur.Jit.empty() {
			c := *in.cur
			c.cachedKey = "" // the copy will change
			c.Multi = text{lit: "jax.lax.with_sharding_constraint"}
			in.cur = &c
		}
		axes, syms := constraintAxes(argAt(a, 1, "shardings"), 0)
		in.cur = in.cur.withUnmanual(axes, syms, quoted(in.file, site, true))
		return first(a)
	}
	sh := &vSharding{Desc: quoted(in.file, site, true)}
	if m, ok := first(a).(*vMesh); ok {
		sh.Single, sh.Explicit = m.Devices == 1, m.Explicit
	}
	if name == "jax.sharding.NamedSharding" {
		spec := argAt(a, 1, "spec")
		if axes, ok := specTreeAxes(spec, 3); ok {
			sh.Axes = axes
		}
		sh.Syms = specSymbols(spec, 3)
	}
	return sh
}

// constraintAxes lists the mesh axes with_sharding_constraint's
// shardings name, literal and symbolic (symbols.go): NamedShardings and
// bare PartitionSpecs (over the context mesh), alone, in a literal tuple,
// or as every alternative of a join (`NamedSharding(mesh, spec) if mesh
// else spec`). Over a mesh with Explicit axes the constraint itself fails
// (it may name only Auto axes): no less a failure, but another one, so
// such a sharding names nothing here.
func constraintAxes(v value, depth int) (axes []string, syms []value) {
	if depth > 3 {
		return nil, nil
	}
	switch t := v.(type) {
	case *vSharding:
		if !t.Explicit {
			return t.Axes, t.Syms
		}
	case *vSeq:
		for _, it := range t.Items {
			a, s := constraintAxes(it, depth+1)
			axes, syms = append(axes, a...), append(syms, s...)
		}
	case *vUnion:
		for i, alt := range t.Alts {
			a, s := constraintAxes(alt, depth+1)
			if i == 0 {
				axes, syms = a, s
				continue
			}
			axes = slices.DeleteFunc(slices.Clone(axes), func(x string) bool { return !slices.Contains(a, x) })
			syms = slices.DeleteFunc(slices.Clone(syms), func(x value) bool { return !slices.Contains(s, x) })
		}
	default:
		if a, ok := specTreeAxes(v, 3); ok {
			axes = a
		}
		syms = specSymbols(v, 3)
	}
	return axes, syms
}

// shardingAxes lists the mesh axes, literal and symbolic, the
// NamedShardings and bare PartitionSpecs (over the context mesh) of a
// jit's in_shardings/out_shardings name (jit's check: they may not be
// manual where the jit is called; the oracle, 0.11.2: a bare spec over a
// manual axis raises "pspec ... contains a manual axes" there, and with no
// context mesh jit rejects a bare spec outright).
func shardingAxes(kw map[string]value) ([]string, []value) {
	var out []string
	var syms []value
	addSyms := func(vs []value) {
		for _, v := range vs {
			if !slices.Contains(syms, v) {
				syms = append(syms, v)
			}
		}
	}
	for _, k := range []string{"in_shardings", "out_shardings"} {
		eachSharding(kw[k], 3, func(sh *vSharding) bool {
			out = append(out, sh.Axes...)
			addSyms(sh.Syms)
			return false
		})
		eachBareSpec(kw[k], 3, func(spec value) {
			if axes, ok := specTreeAxes(spec, 3); ok {
				out = append(out, axes...)
			}
			addSyms(specSymbols(spec, 3))
		})
	}
	if len(out) == 0 {
		return nil, syms
	}
	return unionStrings(out, nil), syms
}

// eachBareSpec calls fn for each PartitionSpec in v that is a sharding of
// its own (alone, or an item of a tuple, list or dict; not one inside a
// NamedSharding).
func eachBareSpec(v value, depth int, fn func(value)) {
	if depth < 0 || v == nil {
		return
	}
	if _, ok := pspecCall(v); ok {
		fn(v)
		return
	}
	switch v := v.(type) {
	case *vSeq:
		for _, it := range v.Items {
			eachBareSpec(it, depth-1, fn)
		}
	case *vDict:
		for _, it := range v.Items {
			eachBareSpec(it, depth-1, fn)
		}
	}
}

// shardingEvidence looks for shardings in jit's in_shardings/out_shardings.
func shardingEvidence(kw map[string]value) string {
	for _, k := range []string{"in_shardings", "out_shardings"} {
		if hasSharding(kw[k], 3) {
			return k + " with a NamedSharding"
		}
	}
	return ""
}

func hasSharding(v value, depth int) bool {
	return eachSharding(v, depth, func(sh *vSharding) bool { return !sh.Single })
}

// eachSharding calls fn on the shardings in v, in literal tuples and
// dicts up to depth levels down, until fn returns true; it reports
// whether one did.
func eachSharding(v value, depth int, fn func(*vSharding) bool) bool {
	if depth < 0 || v == nil {
		return false
	}
	switch v := v.(type) {
	case *vSharding:
		return fn(v)
	case *vSeq:
		for _, it := range v.Items {
			if eachSharding(it, depth-1, fn) {
				return true
			}
		}
	case *vDict:
		for _, it := range v.Items {
			if eachSharding(it, depth-1, fn) {
				return true
			}
		}
	}
	return false
}
