package analysis

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"unsafe"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// value is what the abstract interpreter knows about a Python value. The
// concrete types below are the only implementations; anything else the
// program computes is Unknown.
type value interface{ isValue() }

type (
	// vUnknown is a value the analysis knows nothing about.
	vUnknown struct {
		// sym, when set, is its identity (symbols.go): a library
		// entry's parameter, or a part of one.
		sym *symbol
		// nonEmpty: known to be truthy (nonEmptyUnknown: read where an
		// `if` tested it, exec.go refineTruthy).
		nonEmpty bool
	}
	// vConst is a literal.
	vConst struct{ C ir.Const }
	// vExternal is a name outside the workspace, such as "jax.shard_map".
	vExternal struct{ Qual string }
	// vExtCall is the result of calling an external name.
	vExtCall struct {
		Qual string
		Args []value
		Kw   map[string]value
		Site *ir.Expr
		File *ir.Summary // Site's file
	}
	// vModule is a workspace module.
	vModule struct{ M *module }
	// vFunc is a def or lambda with its closure; Self is set for bound methods.
	vFunc struct {
		Def      *ir.FuncDef
		Env      *scope
		Defaults []value
		Self     value
	}
	// vClass is a workspace class.
	vClass struct {
		Def   *ir.ClassDef
		Attrs map[string]value
		Bases []value
	}
	// vInstance is an object of a workspace class, one per creation site.
	vInstance struct {
		Class *vClass
		Attrs map[string]value
	}
	// vPartial is functools.partial(Fn, *Args, **Kw).
	vPartial struct {
		Fn   value
		Args []value
		Kw   map[string]value
	}
	// vSeq is a tuple or list; List is set for a list (or a sequence
	// spread from one), which the program may have appended to since:
	// blockspec.go trusts its length only where it is written inline.
	vSeq struct {
		Items []value
		List  bool
	}
	// vDict is a dict display with literal string keys. Open is set when
	// the dict may hold more entries than those listed (a **kwargs whose
	// caller's keywords are only partly known): a missing key is then
	// Unknown, never absent.
	vDict struct {
		Keys  []value
		Items []value
		Open  bool
	}
	// vUnion is one of several values (different branches assigned them).
	vUnion struct{ Alts []value }
	// vPallas is the callable pl.pallas_call / pl.kernel returns.
	vPallas struct{ K *kernelDecl }
	// vShardMapped is shard_map(Fn, ...) (or smap).
	vShardMapped struct {
		Fn   value
		Spec *smSpec
	}
	// vShardMapFactory is jax.shard_map(mesh=..., ...) without a function:
	// a decorator, or functools.partial(jax.shard_map, ...).
	vShardMapFactory struct{ Spec *smSpec }
	// vJitted is jax.jit(Fn, ...).
	vJitted struct {
		Fn    value
		Multi string // evidence of more than one device, "" if none
		// Unmanual are the mesh axes its in_shardings/out_shardings name
		// (UnmanualSyms: symbolic ones, symbols.go).
		Unmanual     []string
		UnmanualSyms []value
		Site         *ir.Expr
		Describe     text
	}
	// vStaged is a staging step that does not run the function: Lower
	// (jit(f).lower, an exported function, jit(f).trace(...).lower) lowers
	// it, every lowering error included; otherwise (jit(f).trace,
	// jax.make_jaxpr(f), jit(f).eval_shape) it is only traced. The
	// function runs under the jit J when set, else Fn as it is. Traced:
	// calling it returns a Traced, whose .lower() lowers with the same
	// arguments (Bound).
	vStaged struct {
		J      *vJitted
		Fn     value
		Lower  bool
		Traced bool
		Bound  *args
	}
	// vScopeRef is what `global x` / `nonlocal x` leaves in a function's
	// scope: x binds in s. Reading x reads s; it is never a value of its own.
	vScopeRef struct{ s *scope }
	// vJitFactory is functools.partial(jax.jit, ...) used as a decorator.
	vJitFactory struct {
		Multi        string
		Unmanual     []string
		UnmanualSyms []value
	}
	// vPmapped is jax.pmap(Fn).
	vPmapped struct {
		Fn   value
		Site *ir.Expr
	}
	// vBatched is jax.vmap(Fn) (or xmap): calling it calls Fn, on batched
	// arrays, traced, with Axes bound for collectives (every name when
	// Any: collective.go).
	vBatched struct {
		Fn   value
		Axes []string
		Any  bool
		Vmap bool // jax.vmap (not xmap)
		// InAxes is vmap's in_axes= (nil when not given: 0).
		InAxes value
	}
	// vDeferred wraps functions handed to an unknown external callable:
	// calling the result calls them, in the caller's context.
	vDeferred struct{ Fns []value }
	// vMesh is a device mesh; Axes is nil when unknown.
	vMesh struct {
		Axes     []string
		Explicit bool
		// Devices is the mesh's device count when known (0: unknown).
		Devices int
		// Concrete: built by jax.sharding.Mesh or jax.make_mesh (not an
		// AbstractMesh, no Manual axis type given); Shape its axis sizes
		// when literal (make_mesh); TypesDefault: make_mesh without
		// axis_types; TypesExplicit: axis_types all AxisType.Explicit.
		Concrete                    bool
		Shape                       []int
		TypesDefault, TypesExplicit bool
	}
	// vCoreMesh is a chip-local mesh (TensorCoreMesh and friends).
	vCoreMesh struct{ Axes []string }
	// vOnMesh is a memory space or type placed on a core mesh
	// (`pltpu.VMEM(shape, dtype) @ tc_mesh`): an MPMD kernel's output or
	// scratch that lives on another core mesh, whose axes its device ids
	// may then name.
	vOnMesh struct{ Mesh value }
	// vSharding is a NamedSharding / PositionalSharding: multi-device evidence.
	vSharding struct {
		Desc text
		// Single is set when the sharding's mesh has exactly one device;
		// Explicit when its mesh has Explicit axes.
		Single, Explicit bool
		// Axes are the mesh axes its literal PartitionSpec names (nil
		// when none or not known): a sharding over them is possible only
		// where they are not manual (context.go: spmdCtx.Unmanual).
		Axes []string
		// Syms are the symbolic entries of that spec (symbols.go).
		Syms []value
	}
	// vShardedArray is an array placed with a multi-device sharding
	// (Explicit: over a mesh with Explicit axes).
	vShardedArray struct {
		Desc     text
		Explicit bool
	}
	// vRemoteCopy is a remote copy descriptor; .start() communicates.
	vRemoteCopy struct{ Op *commOp }
	// vMethod is a method of a special value (remote copy .start, custom_vjp
	// .defvjp, custom_partitioning .def_partition).
	vMethod struct {
		Recv value
		Name string
	}
	// vCustom is jax.custom_vjp/custom_jvp(Fn) with its rules.
	vCustom struct {
		Fn    value
		Rules []value
		Part  bool // custom_partitioning
	}
	// vKernelFactory is pl.kernel(out_shape=..., mesh=...) awaiting its body,
	// or pl.core_map(mesh) awaiting its body.
	vKernelFactory struct {
		Site    *ir.Expr
		Kw      map[string]value
		CoreMap bool
		API     string
	}
)

var unknown value = &vUnknown{}

// nonEmptyUnknown is an unknown value known to be truthy: a name read in
// the branch of an `if` that tested it (`if in_axis: psum(x, in_axis)`),
// so not None, (), "" or 0. Only PAL104 reads the difference
// (collective.go: no binder at all binds a non-empty axis name).
var nonEmptyUnknown value = &vUnknown{nonEmpty: true}

func (*vUnknown) isValue()         {}
func (*vConst) isValue()           {}
func (*vExternal) isValue()        {}
func (*vExtCall) isValue()         {}
func (*vModule) isValue()          {}
func (*vFunc) isValue()            {}
func (*vClass) isValue()           {}
func (*vInstance) isValue()        {}
func (*vPartial) isValue()         {}
func (*vSeq) isValue()             {}
func (*vDict) isValue()            {}
func (*vScopeRef) isValue()        {}
func (*vStaged) isValue()          {}
func (*vUnion) isValue()           {}
func (*vPallas) isValue()          {}
func (*vShardMapped) isValue()     {}
func (*vShardMapFactory) isValue() {}
func (*vJitted) isValue()          {}
func (*vJitFactory) isValue()      {}
func (*vPmapped) isValue()         {}
func (*vDeferred) isValue()        {}
func (*vBatched) isValue()         {}
func (*vMesh) isValue()            {}
func (*vCoreMesh) isValue()        {}
func (*vOnMesh) isValue()          {}
func (*vSharding) isValue()        {}
func (*vShardedArray) isValue()    {}
func (*vRemoteCopy) isValue()      {}
func (*vMethod) isValue()          {}
func (*vCustom) isValue()          {}
func (*vKernelFactory) isValue()   {}

// maxUnion bounds the alternatives a union keeps; beyond it the value is Unknown.
const maxUnion = 8

// join merges the values two branches bind to one name.
func join(a, b value) value {
	switch {
	case a == nil:
		return b
	case b == nil || a == b:
		return a
	case a == unknown && isUnknown(b), b == unknown && isUnknown(a),
		a == nonEmptyUnknown && isUnknown(b), b == nonEmptyUnknown && isUnknown(a):
		return unknown // a symbol joined with Unknown has no identity left
	}
	var alts []value
	add := func(v value) {
		if u, ok := v.(*vUnion); ok {
			alts = append(alts, u.Alts...)
		} else {
			alts = append(alts, v)
		}
	}
	add(a)
	add(b)
	seen := map[string]bool{}
	out := alts[:0]
	for _, v := range alts {
		k := valueKey(v, 2)
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	if len(out) > maxUnion {
		return unknown
	}
	if len(out) == 1 {
		return out[0]
	}
	return &vUnion{Alts: out}
}

// alts returns the alternatives of v (itself when not a union).
func alts(v value) []value {
	if u, ok := v.(*vUnion); ok {
		return u.Alts
	}
	return []value{v}
}

// valueKey is a memoisation key: equal keys mean the analysis would treat
// the values alike. Closures and objects are keyed by identity: their
// addresses. A key that outlives them must pin them (keyPins), or a new
// object at a freed one's address would take its entries.
func valueKey(v value, depth int) string {
	var buf [64]byte
	return string(appendKey(buf[:0], v, depth, nil))
}

func appendKeys(b []byte, vs []value, depth int, pins *[]unsafe.Pointer) []byte {
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKey(b, v, depth, pins)
	}
	return b
}

func appendPtr(b []byte, p unsafe.Pointer) []byte {
	return strconv.AppendUint(b, uint64(uintptr(p)), 36)
}

// appendPin is appendPtr that also records p in pins, when set.
func appendPin(b []byte, p unsafe.Pointer, pins *[]unsafe.Pointer) []byte {
	if pins != nil {
		*pins = append(*pins, p)
	}
	return appendPtr(b, p)
}

// sortedKeys returns the keys of m in order, in buf when they fit.
func sortedKeys(m map[string]value, buf []string) []string {
	ks := buf[:0]
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// appendKey appends the key of v to b, and the addresses it quotes to
// pins when set. The keys are built in place, with no string per part: the
// interpreter makes one per abstract call.
func appendKey(b []byte, v value, depth int, pins *[]unsafe.Pointer) []byte {
	if depth < 0 {
		return append(b, "…"...)
	}
	switch v := v.(type) {
	case nil:
		b = append(b, '?')
	case *vUnknown:
		b = append(b, '?')
		if v.nonEmpty {
			b = append(b, '+')
		}
		if v.sym != nil {
			b = appendPin(b, unsafe.Pointer(v.sym), pins)
		}
	case *vConst:
		b = append(b, 'c', byte('0'+v.C.Kind))
		b = strconv.AppendQuote(b, v.C.S)
		b = strconv.AppendInt(b, v.C.I, 10)
		if v.C.B {
			b = append(b, 't')
		}
	case *vExternal:
		b = append(b, "x:"...)
		b = append(b, v.Qual...)
	case *vSeq:
		b = append(b, "s("...)
		b = appendKeys(b, v.Items, depth-1, pins)
		b = append(b, ')')
	case *vDict:
		b = append(b, "d("...)
		if v.Open {
			b = append(b, "…;"...)
		}
		b = appendKeys(b, v.Keys, depth-1, pins)
		b = append(b, '|')
		b = appendKeys(b, v.Items, depth-1, pins)
		b = append(b, ')')
	case *vUnion:
		ks := make([]string, len(v.Alts))
		for i, a := range v.Alts {
			var kb [64]byte
			ks[i] = string(appendKey(kb[:0], a, depth-1, pins))
		}
		sort.Strings(ks)
		b = append(b, "u("...)
		for i, k := range ks {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, k...)
		}
		b = append(b, ')')
	case *vPartial:
		b = append(b, "p("...)
		b = appendKey(b, v.Fn, depth-1, pins)
		b = append(b, ';')
		b = appendKeys(b, v.Args, depth-1, pins)
		var kb [8]string
		for _, k := range sortedKeys(v.Kw, kb[:]) {
			b = append(b, ';')
			b = append(b, k...)
			b = append(b, '=')
			b = appendKey(b, v.Kw[k], depth-1, pins)
		}
		b = append(b, ')')
	case *vFunc:
		b = append(b, 'f')
		b = appendPin(b, unsafe.Pointer(v.Def), pins)
		b = append(b, ':')
		b = appendPin(b, unsafe.Pointer(v.Env), pins)
		b = append(b, ':')
		b = appendKey(b, v.Self, depth-1, pins)
	case *vOnMesh:
		b = append(b, "@("...)
		b = appendKey(b, v.Mesh, depth, pins)
		b = append(b, ')')
	default:
		b = append(b, typeName(v)...)
		b = appendPin(b, valuePtr(v), pins)
	}
	return b
}

// typeName is fmt's %T of a reference value, without fmt.
func typeName(v value) string {
	if t := reflect.TypeOf(v); t != nil {
		return t.String()
	}
	return fmt.Sprintf("%T", v)
}

// valuePtr is the identity of a reference value.
func valuePtr(v value) unsafe.Pointer {
	type iface struct{ typ, data unsafe.Pointer }
	return (*iface)(unsafe.Pointer(&v)).data
}

// constStr returns the string a value is known to be.
func constStr(v value) (string, bool) {
	if c, ok := v.(*vConst); ok && c.C.Kind == ir.ConstStr {
		return c.C.S, true
	}
	return "", false
}

// lookup returns the value of the literal key k, if the dict lists it.
func (d *vDict) lookup(k string) (value, bool) {
	for i, key := range d.Keys {
		if s, ok := constStr(key); ok && s == k {
			return d.Items[i], true
		}
	}
	return nil, false
}

// strList reads a string or a tuple/list of strings ("x" or ("x", "y")).
func strList(v value) ([]string, bool) {
	if s, ok := constStr(v); ok {
		return []string{s}, true
	}
	seq, ok := v.(*vSeq)
	if !ok {
		return nil, false
	}
	var out []string
	for _, it := range seq.Items {
		s, ok := constStr(it)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// truth returns the static truth value of v, if known.
func truth(v value) (val, known bool) {
	switch v := v.(type) {
	case *vConst:
		switch v.C.Kind {
		case ir.ConstNone:
			return false, true
		case ir.ConstBool:
			return v.C.B, true
		case ir.ConstInt:
			return v.C.I != 0, true
		case ir.ConstStr:
			return v.C.S != "", true
		}
	case *vFunc, *vClass, *vModule, *vPallas, *vMesh, *vInstance:
		return true, true
	case *vSeq:
		return len(v.Items) > 0, true
	case *vUnknown:
		if v.nonEmpty {
			return true, true
		}
	}
	return false, false
}
