package analysis

import "github.com/pallas-ls/pallas-ls/analysis/ir"

// KernelConfig is what the analysis knows of how a pallas_call is
// configured (grid, BlockSpecs, operands, outputs, kernel signature): the
// fact the PAL21x rules read. Every part is known or marked unknown;
// rules judge only what is known.
type KernelConfig struct {
	// Interpret is set when interpret= is literally true (or
	// InterpretParams): no Mosaic lowering runs.
	Interpret bool
	// GridLen is len(grid) (0 for no grid), -1 when unknown.
	GridLen int
	// NumScalarPrefetch is the grid spec's num_scalar_prefetch (0 when
	// absent), -1 when unknown.
	NumScalarPrefetch int
	// Operands are the arrays the kernel is called with; nil with
	// OperandsKnown false when their number is not known.
	Operands      []ArrayFact
	OperandsKnown bool
	// Outs is out_shape: one entry per output; OutSingle when out_shape
	// is one array (not a sequence). OutsKnown is false when unknown.
	Outs      []ArrayFact
	OutSingle bool
	OutsKnown bool
	// InSpecs and OutSpecs are the in_specs and out_specs.
	InSpecs, OutSpecs SpecList
	// Scratch is the number of scratch_shapes, -1 when unknown.
	Scratch int
	// Kernel is the kernel's signature as Pallas calls it.
	Kernel KernelSig
}

// ArrayFact is an operand or output: its shape when every dimension is
// known (Shape nil otherwise).
type ArrayFact struct {
	Shape []int
	// Array is set when the value is made by a call known to return one
	// array (a pytree leaf), whatever its shape.
	Array bool
	// DType is the element type's name as JAX spells it ("float32",
	// "bfloat16", "bool"), "" when not known (no dtype argument, or one the
	// analysis cannot read: a default dtype depends on jax_enable_x64).
	DType string
}

// SpecList is an in_specs or out_specs value.
type SpecList struct {
	Present bool // the keyword was given
	Known   bool // a literal sequence, or a single spec (Single)
	Single  bool // one spec, not a sequence
	Specs   []SpecFact
	Loc     Location // the value
}

// SpecFact is one entry of a spec list.
type SpecFact struct {
	// BlockSpec is set when the entry is a pl.BlockSpec(...) call; the
	// rest describes it.
	BlockSpec bool
	Loc       Location // the BlockSpec call
	// Block is the block shape, nil when absent or unknown (BlockKnown).
	Block      []BlockDim
	HasBlock   bool // a block shape was given (not None)
	BlockKnown bool // its entries are known to be a literal sequence
	BlockLoc   Location
	// IndexMap describes index_map (nil when absent or not a function);
	// IndexMapLoc is the index_map argument.
	IndexMap    *IndexMapFact
	IndexMapLoc Location
	// MemorySpace is the last name of memory_space= ("ANY", "SMEM",
	// "VMEM", ...), "" when absent or unknown, "?" when given but unknown.
	MemorySpace string
	// OldOrder is set when the first positional argument is callable: the
	// pre-0.4.31 BlockSpec(index_map, block_shape) order. Call and File
	// are the call expression, for the fix.
	OldOrder bool
	// NewOrder is set when the second positional argument is a function:
	// BlockSpec(block_shape, index_map), the order since 0.4.31.
	NewOrder bool
	Call     *ir.Expr
	File     *ir.Summary
}

// BlockDim is one dimension of a block shape.
type BlockDim struct {
	Size     int
	Known    bool
	Squeezed bool // None or pl.Squeezed()
}

// IndexMapFact is an index map function.
type IndexMapFact struct {
	Name string // "<lambda>" or the def's name
	Loc  Location
	Sig  Signature
	// Returns is the number of values the function returns (its one
	// return a literal tuple, or 1 for a constant), -1 when unknown.
	Returns int
}

// Signature counts a function's positional parameters.
type Signature struct {
	Required int      // positional parameters without default
	Max      int      // positional parameters, defaults included
	VarArgs  bool     // *args: no maximum
	Names    []string // the positional parameters' names
}

// KernelSig is the kernel's signature after functools.partial bindings.
type KernelSig struct {
	Known bool
	Name  string
	Sig   Signature // of the def itself
	Bound int       // positional arguments bound by partial
	// BoundNames are the keywords bound by partial.
	BoundNames []string
	Loc        Location // the kernel reference in the pallas_call
}

// BodyCall is a call of an external API (jnp, lax, ...) in a kernel's
// body, or in a function the body calls.
type BodyCall struct {
	Location
	API string // qualified name: "jax.numpy.cumsum"
}
