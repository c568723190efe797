package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// KernelCall is what the analysis concluded about one kernel call site:
// the fact the SPMD rules read.
type KernelCall struct {
	Site    Location // the call expression JAX would ask to wrap
	Kernel  string   // the kernel function's name
	Entry   string   // "pallas_call", "kernel" or "core_map"
	API     string   // the entry's qualified name: "jax.experimental.pallas.kernel", ...
	Backend lowering.Backend
	Effects lowering.Effects
	// Ops are the kernel's communicating operations.
	Ops []OpFact
	// CoreAxes are the axes of the core mesh a pl.kernel or core_map runs
	// over, when every one of its meshes is known (nil otherwise).
	CoreAxes []string
	// SizeOps are its lax.axis_size calls on names that neither a core
	// mesh nor a named grid axis of the kernel binds (Kind "axis_size").
	SizeOps []OpFact
	// Reaches are the distinct contexts the call is reached in, each with
	// the first witness path found.
	Reaches []Reach
	// ExpectReaches are the contexts reached only inside a raises-block
	// that catches specific exception types (Reach.Expects): PAL101,
	// PAL103 and PAL104's kernel-axis check report the errors it does not
	// catch; every other rule sees only Reaches, as for code under a
	// broad catch.
	ExpectReaches []Reach
	// Decl is where the kernel is declared (the pallas_call / pl.kernel).
	Decl Location
	// MaybeComm is set when the kernel communicates over axes whose names
	// are not known in this context (parameters): enough for a hint only.
	MaybeComm bool
	// Call is the anchored call expression and File its file, for fixes.
	Call *ir.Expr
	File *ir.Summary
	// Meshes are the mesh-valued names visible at the call, innermost
	// scope first.
	Meshes []MeshRef
	// Bound reports whether a name is bound in the call's scope chain, so
	// that a fix does not shadow it (names bound later in the scope count
	// too).
	Bound func(name string) bool
	// OutArity is the number of outputs when out_shape is a literal
	// sequence (0: one output, or unknown).
	OutArity int
	// OutStructs are the jax.ShapeDtypeStruct calls among the declared
	// outputs (pallas_call's out_shape, pl.kernel's out_type: one struct,
	// or a literal tuple of them), in pytree order; others are left out.
	OutStructs []ShapeStruct
	// Lowering is the kernel's lowering configuration: compiler params,
	// platform markers, barrier use (kconfig.go).
	Lowering LoweringConfig
	// Config is how a pallas_call is configured (nil for pl.kernel and
	// core_map); BodyCalls are the external calls its body makes.
	Config    *KernelConfig
	BodyCalls []BodyCall
	// Scratch: the declaration gives scratch buffers (scratch_types or
	// scratch_shapes; for a pallas_call given in its grid_spec, not seen).
	Scratch bool
}

// ShapeStruct is a jax.ShapeDtypeStruct(...) call, for PAL105.
type ShapeStruct struct {
	Location // the call
	// Keywords are the keywords it is given, but those given a literal None.
	Keywords []string
	// Splat: it spreads **kwargs, so its keywords are not all known.
	Splat bool
}

// UnboundCollective is a JAX collective (lax.psum, ppermute, all_gather,
// axis_index, axis_size, ...) called, on a path from a concrete entry, on
// an axis name that nothing around it binds (PAL104).
type UnboundCollective struct {
	Location        // the call that names the axis
	API      string // qualified name: "jax.lax.psum"
	Axis     string // the unbound name
	// AxisText, when Axis is empty, is the source of the axis argument
	// (`in_axis`): a value whose name is not known here, but which the
	// path shows is not manual (NotManual).
	AxisText string
	// AxisWhy, for an axis whose value is not known here and no
	// NotManual or EagerRead, says why it names an axis all the same (it
	// is non-empty where an `if` tested it; every value it may hold does).
	AxisWhy string
	// Eager: called on concrete values, outside any tracing (the wording
	// of some errors differs: lowering.UnboundCollective).
	Eager bool
	// VMA: traced with check_vma on; ConstArg: the operand is a Python
	// constant (lowering.NotInMeshCollective tells the errors apart);
	// MixedVMA: the axes also name a manual axis the shard_map's in_specs
	// shard over (lowering.MixedVMACollective).
	VMA, ConstArg, MixedVMA bool
	// PassedAt are the literals of Axis that calls on the path pass as
	// plain arguments (`helper(x, "i")`): the name itself, not a mesh that
	// could have it (Pass.WrittenElsewhere leaves them out).
	PassedAt []Location
	Reach    Reach // where it runs from
	// NotManual, in a library entry, is the call on the path that shows
	// the axis is not manual there (a jit's in_shardings/out_shardings or
	// a with_sharding_constraint over it: JAX refuses those
	// inside a shard_map that makes the axis manual), so no caller's
	// shard_map can bind it; nil otherwise.
	NotManual *Related
	// EagerRead, in a library entry, is where the result is read as a
	// Python value (`.item()`, float()): the code runs only eagerly, where
	// no shard_map binds the axis (eagerread.go); nil otherwise.
	EagerRead *Related
}

// AxisName is the axis for messages: the name, or the argument's source.
func (u *UnboundCollective) AxisName() string {
	if u.Axis != "" {
		return u.Axis
	}
	return u.AxisText
}

// EagerRef is a jax.new_ref call with a memory space that runs eagerly,
// outside any trace (PAL217).
type EagerRef struct {
	Location        // the jax.new_ref call
	API      string // its qualified name
	Reach    Reach  // where it runs from
}

// ShardMapApply is a shard_map (jax.shard_map or
// jax.experimental.shard_map.shard_map) applied to arguments on a path
// from a concrete entry, with what JAX's checks at that moment read
// (PAL106, PAL107; recorded once per application site, smapply.go).
type ShardMapApply struct {
	Location        // the call applying the shard_mapped function
	API      string // the shard_map's qualified name
	ShardMap Location
	// MeshArg and InSpecsArg are the mesh= and in_specs= arguments as
	// written in the shard_map call (nil when not there).
	MeshArg, InSpecsArg *Location
	// Mesh is mesh= when it is a mesh built by jax.sharding.Mesh or
	// jax.make_mesh (a concrete mesh), nil otherwise.
	Mesh *MeshFact
	// OuterAPI and Outer: the shard_map whose body the application runs
	// in, if any.
	OuterAPI string
	Outer    *Location
	// OuterEagerPartial: the outer shard_map was applied eagerly and is
	// not known to be manual over every mesh axis.
	OuterEagerPartial bool
	// FullManual: manual over every axis of Mesh.
	FullManual bool
	// EagerPartial: applied eagerly (outside any jit or trace) and known
	// to leave some axis of Mesh automatic (PAL102).
	EagerPartial bool
	// SpecArg ("in" or "out") and SpecAxis: a literal in_specs or
	// out_specs names SpecAxis, which the literal axis_names leaves
	// automatic (PAL102).
	SpecArg, SpecAxis string
	// Spec and InputSpec: an argument that is a fresh unsharded array
	// whose in_specs entry names mesh axes, every earlier check known to
	// pass: the entry normalized to its rank and its own spec, as JAX
	// prints them ("P('x', None)", "P(None, None)"); empty when not known.
	Spec, InputSpec string
	Reach           Reach
}

// MeshFact is what is known of a concrete mesh.
type MeshFact struct {
	Axes  []string
	Shape []int // axis sizes, nil unless literal
	// TypesDefault: jax.make_mesh without axis_types; TypesExplicit:
	// axis_types given, every one AxisType.Explicit.
	TypesDefault, TypesExplicit bool
}

// MeshRef is a name bound to a device mesh.
type MeshRef struct {
	Name string
	Axes []string // nil when unknown (a parameter named like a mesh)
}

// OpFact is one communicating operation, located.
type OpFact struct {
	Location
	Kind   string // "remote DMA", "remote signal", "axis_index" ("axis_size" in SizeOps)
	API    string
	IDForm string
	Axes   []string // dict keys; axis_index names, last first (JAX reads a tuple from its end)
	// NTuple is the number of entries of a tuple id; Logical is set for
	// device_id_type=LOGICAL; UnknownAxis when dict keys are not literal.
	NTuple      int
	NKeys       int // entries of a dict id (0: unknown)
	Logical     bool
	UnknownAxis bool
	// ID is the device_id argument as written in the op's call, if it is;
	// LiteralDict is set when it is a dict display with string-literal keys.
	ID          *Location
	LiteralDict bool
}

// Reach is one context a kernel call is reached in.
type Reach struct {
	Kind lowering.ContextKind // after folding: eager-single, jit-multi, shard-map-*, pmap, unknown
	// ExplicitMesh is set when the context mesh is Explicit (make_mesh).
	ExplicitMesh bool
	// Bound are the axis names a vmap binds around the call (BoundAny:
	// some binder's names are not known).
	Bound    []string
	BoundAny bool
	// TraceOnly is set when the path only traces the kernel call
	// (jit(f).trace, jax.make_jaxpr, jax.eval_shape): nothing is lowered,
	// so only trace-time errors can be raised.
	TraceOnly bool
	// PmapLegacy, PmapMerged: a pmap reach while jax_pmap_shmap_merge was
	// set off, or on.
	PmapLegacy, PmapMerged bool
	// Vmapped: the call runs under jax.vmap (PAL108); VmapWide: some
	// enclosing vmap's batch size is known to exceed 1.
	Vmapped, VmapWide bool
	// CheckVMA is set when the call is traced with check_vma on: the
	// innermost shard_map is jax.shard_map with check_vma True (the
	// default), the old shard_map with check_rep True, or jax.smap (PAL105).
	CheckVMA bool
	// Expects are the exception types a pytest.raises / assertRaises
	// around the call catches, when they are builtin ones named literally
	// (a broad or unknown catch records no call at all): an error of
	// another type escapes, so it still fails (Reach.Catches).
	Expects []string
	// Multi is the multi-device evidence, for PAL103.
	Multi string
	// Missing lists mesh axes left non-manual (PAL102).
	Missing []string
	// InnerMissing lists, in a shard_map nest that makes every mesh axis
	// manual, the axes the innermost shard_map alone leaves automatic
	// (lowering.Context.InnerPartial: such a call is partial before 0.9).
	InnerMissing []string
	// ShardMap is the innermost shard_map site, when inside one; SMCall
	// and SMFile are its call expression and file (for fixes), and
	// MeshAxes the mesh's axes when known.
	ShardMap *Location
	SMCall   *ir.Expr
	SMFile   *ir.Summary
	MeshAxes []string
	// Entry describes where the path starts ("module top level of main").
	Entry string
	// Path is the witness path, nearest call first; the last element is the entry.
	Path []Related
	// Jit describes the enclosing jit, if any.
	Jit string
	// Library is set when the path starts at a function with no caller in
	// the workspace (its context is unknown, so only a hint is due).
	Library bool
	// Unmanual, on a library path, are mesh axes the path shows are not
	// manual where the call runs, and UnmanualAt the call that shows it
	// (a jit's in_shardings/out_shardings or a with_sharding_constraint
	// over them, which JAX refuses where they are manual): no caller can
	// run the call inside a fully manual shard_map.
	Unmanual   []string
	UnmanualAt *Related
	// Outer is the call on the path nearest the entry (the first call the
	// entry makes), with the meshes visible there, for fixes that wrap the
	// whole bad path instead of the kernel call.
	Outer *OuterCall
	// JitDef is the function nearest the entry on the path that is
	// decorated with jax.jit (nil if none), for the decorate-the-entry fix.
	JitDef *ir.FuncDef
	// JitDeco is that function's jit decorator expression.
	JitDeco *ir.Expr
}

// Context is the lowering context of the reach, for lowering.Predict.
func (r Reach) Context() lowering.Context {
	return lowering.Context{Kind: r.Kind, ExplicitMesh: r.ExplicitMesh, TraceOnly: r.TraceOnly, PmapLegacy: r.PmapLegacy, PmapMerged: r.PmapMerged,
		InnerPartial: len(r.InnerMissing) > 0}
}

// OuterCall is a call expression on a witness path.
type OuterCall struct {
	Call   *ir.Expr
	File   *ir.Summary
	Meshes []MeshRef
	// Bound is KernelCall.Bound for the outer call.
	Bound func(name string) bool
}

// kernelInfo describes one fact for the editor's hover.
func kernelInfo(f *KernelCall) KernelCallInfo {
	info := KernelCallInfo{Location: f.Site, Kernel: f.Kernel, Backend: f.Backend.String()}
	var comm []string
	for _, op := range f.Ops {
		comm = append(comm, fmt.Sprintf("%s (%s) at line %d", op.Kind, op.API[strings.LastIndexByte(op.API, '.')+1:], op.Pos.Line))
	}
	info.Communication = strings.Join(comm, "; ")
	for _, r := range f.Reaches {
		info.Contexts = append(info.Contexts, describeReach(r))
		info.Reaches = append(info.Reaches, reachInfo(r))
	}
	info.Label = kernelLabel(f, info.Reaches)
	return info
}

// describeReach renders a context in words, for hovers and messages.
func describeReach(r Reach) string {
	var s string
	switch r.Kind.String() {
	case "eager-single":
		s = "outside shard_map"
	case "jit-multi":
		s = "under a multi-device jit (" + r.Multi + ") without shard_map"
	case "shard-map-full":
		s = "inside a fully manual shard_map"
	case "shard-map-partial":
		s = "inside a shard_map that leaves axes " + strings.Join(r.Missing, ", ") + " not manual"
	case "pmap":
		s = "inside jax.pmap"
	default:
		s = "in an unknown context (no caller in the workspace)"
	}
	if r.Entry != "" {
		s += ", reached from " + r.Entry
	}
	return s
}

// exceptionBases are the builtin exceptions a specific catch may name,
// each with the builtin bases it is an instance of.
var exceptionBases = map[string][]string{
	"ValueError": nil, "TypeError": nil, "NameError": nil, "AttributeError": nil,
	"AssertionError": nil, "RuntimeError": nil, "NotImplementedError": {"RuntimeError"},
	"KeyError": {"LookupError"}, "IndexError": {"LookupError"}, "LookupError": nil,
	"ZeroDivisionError": {"ArithmeticError"}, "ArithmeticError": nil,
	// jax.errors.JaxRuntimeError (jaxlib's XlaRuntimeError): what a
	// kernel raises while it runs, none of the trace and lowering errors
	// pallas-ls predicts.
	"JaxRuntimeError": nil,
}

// specificExceptions reports whether names are all builtin exceptions
// that catch only part of what JAX raises (not Exception, not a class
// pallas-ls cannot place).
func specificExceptions(names []string) bool {
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if _, ok := exceptionBases[n]; !ok {
			return false
		}
	}
	return true
}

// Catches reports whether the raises-block around the reach catches an
// exception of type errType (JAX's error: "NameError", "ValueError").
// A reach outside any catches nothing.
func (r Reach) Catches(errType string) bool {
	for _, n := range r.Expects {
		if n == errType || slices.Contains(exceptionBases[errType], n) {
			return true
		}
	}
	return false
}
