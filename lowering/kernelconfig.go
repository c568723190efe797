package lowering

import (
	"fmt"
	"strconv"
	"strings"
)

// What JAX raises for a misconfigured pallas_call (the PAL21x rules), per
// version, as verified by the oracle (oracle/results): block shapes that
// break the TPU tiling, BlockSpecs whose rank or index map does not fit,
// spec lists that do not match the operands, kernels whose signature does
// not take the refs, primitives Mosaic cannot lower, and the pre-0.4.31
// BlockSpec argument order.

const (
	whereCore         = "jax/_src/pallas/core.py"
	wherePallasCall   = "jax/_src/pallas/pallas_call.py"
	msgTilingRequires = "The Pallas TPU lowering currently requires that the last two dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to the respective dimensions of the overall array."
)

// HasTilingCheck reports whether Pallas checks block shapes against the
// (8, 128) tiling at lowering (since 0.4.31; before, only Mosaic's
// compiler failed, later and differently).
func HasTilingCheck(v Version) bool { return v.AtLeast(V(0, 4, 31)) }

// BlockTilingOutcome is the error of a rank >= 2 block whose last two
// dimensions are neither tiled nor equal to the array's.
func BlockTilingOutcome(v Version) Outcome {
	if !HasTilingCheck(v) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError", Message: msgTilingRequires, Where: whereMosaicLower}
}

// AnyWindowOutcome is the error of a block in the ANY memory space that
// is not the whole array: NotImplementedError up to 0.4.30, ValueError in
// 0.4.31-0.4.33 and from 0.6; the oracle records no error at 0.4.38 and
// 0.5.3 (no check in that window of releases).
func AnyWindowOutcome(v Version) Outcome {
	switch {
	case v.Less(V(0, 4, 31)):
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "NotImplementedError", Where: whereMosaicLower,
			Message: "Operands in placed in the TPUMemorySpace.ANY memory space don't support windowing (i.e. non-trivial block_shape or index_map)."}
	case v.Less(V(0, 4, 34)), v.AtLeast(V(0, 6, 0)):
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError", Where: whereMosaicLower,
			Message: "The Pallas TPU lowering currently supports in memory space ANY only blocks having the same block shape as the array shape and a trivial index_map (returning all 0s)."}
	}
	return Outcome{}
}

// HBMWindowSince is the first oracle version whose ANY-space check also
// covers blocks in memory space HBM (0.7.2 has it, 0.6.2 not; the release
// between is not known, so older versions are not judged).
var HBMWindowSince = V(0, 7, 2)

// HasBlockRankCheck reports whether Pallas checks block rank and index
// map results against the array (since 0.4.31).
func HasBlockRankCheck(v Version) bool { return v.AtLeast(V(0, 4, 31)) }

// BlockRankOutcome: a block shape of another rank than the array's.
func BlockRankOutcome(v Version, arrayShape []int) Outcome {
	if !HasBlockRankCheck(v) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: whereCore,
		Message: "Block shape for {origin} (= {block_shape}) must have the same number of dimensions as the array shape " + PyTuple(arrayShape) + "."}
}

// IndexMapReturnsOutcome: an index map returning got values for a block
// of want dimensions.
func IndexMapReturnsOutcome(v Version, want, got int) Outcome {
	var msg string
	switch {
	case !HasBlockRankCheck(v):
		return Outcome{}
	case v.Less(V(0, 4, 32)):
		msg = fmt.Sprintf("Index map for {origin} must return %d values to match block shape {block_shape}. Currently returning %d values.", want, got)
	default:
		msg = fmt.Sprintf("Index map function {src} for {origin} must return %d values to match block_shape={block_shape}. Currently returning %d values", want, got)
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Message: msg, Where: whereCore}
}

// ArityOutcome is Python's TypeError for calling fn (positional
// parameters: required, max; varargs) with given positional arguments; no
// failure when they fit. required parameter names are needed for the
// "missing" wording: names of the positional parameters in order.
func ArityOutcome(fn string, names []string, required, max int, varargs bool, given int) Outcome {
	o := Outcome{Fails: true, Layer: LayerTrace, Error: "TypeError", Where: wherePallasCall}
	switch {
	case given < required:
		missing := names[given:required]
		quoted := make([]string, len(missing))
		for i, n := range missing {
			quoted[i] = "'" + n + "'"
		}
		list := strings.Join(quoted, ", ")
		if len(quoted) > 1 {
			list = strings.Join(quoted[:len(quoted)-1], ", ") + " and " + quoted[len(quoted)-1]
		}
		o.Message = fmt.Sprintf("%s() missing %d required positional argument%s: %s", fn, len(missing), plural(len(missing)), list)
	case !varargs && given > max:
		takes := strconv.Itoa(max)
		if required != max {
			takes = fmt.Sprintf("from %d to %d", required, max)
		}
		were := "were"
		if given == 1 {
			were = "was"
		}
		o.Message = fmt.Sprintf("%s() takes %s positional argument%s but %d %s given", fn, takes, plural(max), given, were)
	default:
		return Outcome{}
	}
	return o
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// SpecTreeOutcome: in_specs of another length than the operands.
func SpecTreeOutcome(v Version, specs, values int) Outcome {
	o := Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: whereCore}
	if v.Less(V(0, 4, 31)) {
		o.Message = "Pytree specs for arguments and `in_specs` must match: {tree} vs. {tree}"
		return o
	}
	inputs := "`inputs`"
	if v.Less(V(0, 6, 0)) {
		inputs = "inputs"
	}
	o.Message = fmt.Sprintf("Pytree for `in_specs` and %s do not match. There are 1 mismatches, including:\n"+
		"    * `in_specs` is a tuple of length %d but %s is a tuple of length %d, so the lengths do not match", inputs, specs, inputs, values)
	return o
}

// TopTree is the top of a spec or out_shape pytree: one leaf (a BlockSpec,
// a ShapeDtypeStruct), or a tuple or list (Pallas makes a list a tuple) of
// Len entries, LeafItems when each entry is known to be a leaf.
type TopTree struct {
	Seq       bool
	Len       int
	LeafItems bool
}

// Matches reports whether two tops agree (then the mismatch, if any, is
// deeper, which pallas-ls does not judge).
func (t TopTree) Matches(u TopTree) bool { return t.Seq == u.Seq && (!t.Seq || t.Len == u.Len) }

// def is the PyTreeDef's str, "{tree}" when the entries are not known.
func (t TopTree) def() string {
	switch {
	case !t.Seq:
		return "PyTreeDef(*)"
	case !t.LeafItems:
		return "{tree}"
	case t.Len == 1:
		return "PyTreeDef((*,))"
	}
	return "PyTreeDef((" + strings.TrimSuffix(strings.Repeat("*, ", t.Len), ", ") + "))"
}

// what is how tree_util's mismatch message names the top's type.
func (t TopTree) what() string {
	if !t.Seq {
		return "a pytree leaf"
	}
	return "a <class 'tuple'>"
}

// OutSpecsTreeOutcome: out_specs whose top differs from out_shape's (a
// single BlockSpec for a sequence of outputs or the reverse, or sequences
// of different lengths; oracle-checked on 0.4.30, 0.4.33, 0.4.38 and 0.12).
// Before 0.4.31 JAX prints both PyTreeDefs; since, tree_util's first
// mismatch.
func OutSpecsTreeOutcome(v Version, specs, outs TopTree) Outcome {
	o := Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: whereCore}
	const head = "Pytree for `out_specs` and `out_shape` do not match. There are 1 mismatches, including:\n    * "
	switch {
	case v.Less(V(0, 4, 31)):
		o.Message = "Pytree specs for `out_shape` and `out_specs` must match: " + outs.def() + " vs. " + specs.def()
	case specs.Seq != outs.Seq:
		o.Message = head + "`out_specs` is " + specs.what() + " but `out_shape` is " + outs.what() + ", so their Python types differ"
	default:
		o.Message = fmt.Sprintf(head+"`out_specs` is a tuple of length %d but `out_shape` is a tuple of length %d, so the lengths do not match", specs.Len, outs.Len)
	}
	return o
}

// BlockSpecOrder says what BlockSpec(index_map, block_shape), the old
// argument order, does at v: fine up to 0.4.30 (the order then), a
// DeprecationWarning in 0.4.31-0.4.33, and from 0.4.34 a TypeError when the
// function is taken as the block shape.
func BlockSpecOrder(v Version) (deprecated bool, o Outcome) {
	switch {
	case v.Less(V(0, 4, 31)):
		return false, Outcome{}
	case v.Less(V(0, 4, 34)):
		return true, Outcome{}
	case v.Less(V(0, 6, 0)):
		return true, Outcome{Fails: true, Layer: LayerTrace, Error: "TypeError", Message: "object of type 'function' has no len()", Where: whereCore}
	}
	return true, Outcome{Fails: true, Layer: LayerTrace, Error: "TypeError", Message: "'function' object is not iterable", Where: whereCore}
}

// BlockSpecNewOrderOutcome is what BlockSpec(block_shape, index_map), the
// order since 0.4.31, does at v: up to 0.4.30 the function is taken as the
// block shape.
func BlockSpecNewOrderOutcome(v Version) Outcome {
	if v.AtLeast(V(0, 4, 31)) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "TypeError", Message: "'function' object is not iterable", Where: whereCore}
}

// PyTuple renders a shape as Python prints a tuple: (8,), (8, 128).
func PyTuple(dims []int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.Itoa(d)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// dtypeBits is jax.dtypes.itemsize_bits of the dtypes the rank-1 tiling
// check is judged for, by their canonical names. 64-bit types are left
// out: 32 // 64 is 0 and the check divides by it.
var dtypeBits = map[string]int{
	"float32": 32, "int32": 32, "uint32": 32,
	"bfloat16": 16, "float16": 16, "int16": 16, "uint16": 16,
	"int8": 8, "uint8": 8, "bool": 8,
	"float8_e4m3fn": 8, "float8_e5m2": 8, "float8_e4m3b11fnuz": 8, "float8_e4m3fnuz": 8, "float8_e5m2fnuz": 8,
	"int4": 4, "uint4": 4,
}

// dtypeAliases are other spellings of the dtypes above.
var dtypeAliases = map[string]string{"bool_": "bool", "half": "float16", "single": "float32"}

// CanonicalDtype returns the canonical name of a dtype spelled name (the
// attribute of jax.numpy/numpy/ml_dtypes, or its string), "" when it is
// none pallas-ls judges.
func CanonicalDtype(name string) string {
	if a, ok := dtypeAliases[name]; ok {
		name = a
	}
	if _, ok := dtypeBits[name]; ok {
		return name
	}
	return ""
}

// The rank-1 block check (mosaic/lowering.py _check_block_mappings): from
// 0.4.32 a rank-1 block must equal the array or be a multiple of the tiling
// size 128 * (32 // bits), reported with the rank-2 message (0.4.31 with
// its jaxlib rejects every rank-1 block instead; not judged); 0.4.35
// (1222b4a571) words its own message and counts bool as 32 bits; 0.9.2
// (5c96b9ee78) also takes a multiple of the chip's sublanes * lanes, or a
// power of 2 at least the tiling size. Oracle-checked on 0.4.33, 0.4.38 and
// 0.12 (float32, bfloat16, int8, int32, bool).
var (
	Rank1TilingSince       = V(0, 4, 32)
	Rank1MessageSince      = V(0, 4, 35)
	Rank1ChunkOrPowerSince = V(0, 9, 2)
	rank1ChunkDefault      = 1024 // 8 sublanes * 128 lanes: every chip but 8t, and what the oracle's host reports
	rank1ChunkBySublanes16 = map[string]bool{"8t": true}
)

// rank1Chunk is sublanes * lanes of a chip ("" when not configured: the
// smallest, so that a block passing on some chip is never judged).
func rank1Chunk(chip string) int {
	if rank1ChunkBySublanes16[chip] {
		return 2 * rank1ChunkDefault
	}
	return rank1ChunkDefault
}

// Rank1BlockOutcome is what lowering does with a rank-1 block of size bs
// on an array of size as and dtype dtype (canonical name) for chip (""
// when unknown). ok is false where pallas-ls does not judge it (unknown
// dtype, a version without the check); o.Fails false when it passes.
func Rank1BlockOutcome(v Version, chip string, bs, as int, dtype string) (o Outcome, ok bool) {
	bits, known := dtypeBits[dtype]
	if !known || v.Less(Rank1TilingSince) {
		return Outcome{}, false
	}
	tilingBits := bits
	if dtype == "bool" && v.AtLeast(Rank1MessageSince) {
		tilingBits = 32 // "bools get a bitwidth of 32 due to how mosaic handles them"
	}
	tile := 128 * (32 / tilingBits)
	chunk := rank1Chunk(chip)
	var pass bool
	switch {
	case bs == as:
		pass = true
	case v.Less(Rank1ChunkOrPowerSince):
		pass = bs%tile == 0
	default:
		pass = bs%chunk == 0 || bs >= tile && bs&(bs-1) == 0
	}
	if pass {
		return Outcome{}, true
	}
	o = Outcome{Fails: true, Layer: LayerPallasLowering, Error: "ValueError", Where: whereMosaicLower}
	const head = "The Pallas TPU lowering currently requires that rank 1 block shapes, either 1) the first (and only) dimension of the block shape is equal to the first (and only) dimension of the array shape, or 2) the first (and only) dimension of the block shape"
	switch {
	case v.Less(Rank1MessageSince):
		o.Message = msgTilingRequires
	case v.Less(Rank1ChunkOrPowerSince):
		o.Message = fmt.Sprintf("%s is a multiple of the tiling size (%d = 128 * (32 // %d)) of the array shape.", head, tile, bits)
	default:
		o.Message = fmt.Sprintf("%s is a multiple of %d, or 3) the first (and only) dimension of the block shape is a power of 2 and at least the tiling size (%d = 128 * (32 // %d)) of the array shape.", head, chunk, tile, bits)
	}
	return o, true
}

// GridBlockSpecsOptionalSince is the first release whose Mosaic lowering
// maps an operand without a BlockSpec to its whole array when a grid is
// given; before it (jax/_src/pallas/mosaic/lowering.py, lower_jaxpr_to_module,
// up to jax-v0.4.30) each such operand raises, after the kernel body is
// lowered.
var GridBlockSpecsOptionalSince = V(0, 4, 31)

// MissingBlockSpecsOutcome: a TPU pallas_call with a non-empty grid and no
// in_specs or out_specs.
func MissingBlockSpecsOutcome(v Version) Outcome {
	if !v.Less(GridBlockSpecsOptionalSince) {
		return Outcome{}
	}
	return Outcome{Fails: true, Layer: LayerPallasLowering, Error: "NotImplementedError",
		Message: "BlockSpecs are required on TPU when grid is specified", Where: whereMosaicLower}
}
