package lowering

import (
	"strconv"
	"strings"
)

// Accumulator refs (pltpu.ACC(mxu_id)(shape, dtype)): AccMemorySpace.__call__
// runs check_accumulator_ref (jax/_src/pallas/mosaic/core.py, JAX 0.12) when
// the ref is built, on any backend and in interpret mode (the same code in
// 0.11.2 and 0.12.0.1). Its checks, in
// order: rank, dtype, then the chip's accumulators, MXU count, column size
// and sublanes (jax/_src/tpu_info.py).

// AccSince is the first version known to have pltpu.ACC: the oracle's
// 0.11.2 has it (jax-errors.md §3-5 placed it after the 0.11 line; 0.10.2
// has no ACC, and 0.11.0/0.11.1 were not observed).
var AccSince = V(0, 11, 2)

// AccChip is what check_accumulator_ref reads of a chip.
type AccChip struct {
	Accumulators, MXUs, ColumnSize, Sublanes int
}

// accChips is tpu_info's table at 0.12 (per TensorCore).
var accChips = map[string]AccChip{
	"v2": {0, 1, 128, 8}, "v3": {0, 2, 128, 8},
	"v4i": {0, 4, 128, 8}, "v4": {0, 4, 128, 8}, "v5e": {0, 4, 128, 8}, "v5p": {0, 4, 128, 8},
	"v6e": {0, 2, 256, 8},
	"7":   {128, 2, 256, 8}, "7x": {128, 2, 256, 8},
	"8i": {256, 2, 256, 8}, "8t": {256, 2, 256, 16},
}

// AccChipInfo returns the accumulator data of a canonical chip name
// (ParseChip's).
func AccChipInfo(chip string) (AccChip, bool) {
	c, ok := accChips[chip]
	return c, ok
}

// AccRef is what the source says of one accumulator ref: Shape nil when
// not literal; Dtype is "float32"/"int32"/another name, "" when unknown;
// DtypeRepr is how Python prints the value passed ("" when unknown);
// MXU is -1 when not literal.
type AccRef struct {
	Shape     []int
	Dtype     string
	DtypeRepr string
	MXU       int
}

func accFail(msg string) Outcome {
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Message: msg, Where: "jax/_src/pallas/mosaic/core.py"}
}

// AccRefOutcome runs check_accumulator_ref on what is known: ok is false
// when every check that can be judged passes, or the version has no ACC.
// chip is "" when no target chip is configured: the chip checks are then
// not judged.
func AccRefOutcome(v Version, ref AccRef, chip string) (Outcome, bool) {
	if v.Less(AccSince) {
		return Outcome{}, false
	}
	if ref.Shape == nil {
		return Outcome{}, false // the rank check comes first
	}
	if len(ref.Shape) < 2 {
		return accFail("Acc ref must be at least 2D, got shape " + pyTuple(ref.Shape)), true
	}
	if ref.Dtype == "" {
		return Outcome{}, false
	}
	if ref.Dtype != "float32" && ref.Dtype != "int32" {
		return accFail("Acc ref dtype must be float32 or int32, got " + placeholderOr(ref.DtypeRepr, "{dtype}")), true
	}
	info, ok := accChips[chip]
	if !ok {
		return Outcome{}, false
	}
	switch {
	case info.Accumulators == 0:
		return accFail("Accumulators are not available on TPU " + chip), true
	case ref.MXU < 0:
		return Outcome{}, false
	case ref.MXU >= info.MXUs:
		return accFail("mxu_id must be in [0, " + strconv.Itoa(info.MXUs) + "), got mxu_id=" + strconv.Itoa(ref.MXU)), true
	}
	m, n := 1, ref.Shape[len(ref.Shape)-1]
	for _, d := range ref.Shape[:len(ref.Shape)-1] {
		m *= d
	}
	if n != info.ColumnSize {
		return accFail("The minor dimension size of an accumulator ref must be " + strconv.Itoa(info.ColumnSize) +
			" but got " + strconv.Itoa(n)), true
	}
	if m <= 0 || m%info.Sublanes != 0 {
		return accFail("The product of the major dimensions must be a multiple of " + strconv.Itoa(info.Sublanes) +
			", but got " + strconv.Itoa(m)), true
	}
	return Outcome{}, false
}

// pyTuple prints ints as Python prints a tuple: (), (8,), (8, 256).
func pyTuple(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	if len(xs) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func placeholderOr(s, ph string) string {
	if s == "" {
		return ph
	}
	return s
}

// AccEmptyRefOutcome is the outcome of `jax.empty_ref(ty,
// memory_space=pltpu.ACC(i))` lowered in a Mosaic kernel (the same code in
// 0.11.2 and 0.12.0.1). empty_ref itself checks nothing; Mosaic's
// _alloc_value hands the ref to LoweringContext.alloc_accumulator, which
// first rejects a chip without accumulators, then asserts the mxu_id, the
// major product and the minor dimension (bare asserts), and only then
// builds an AccRef, whose __post_init__ runs check_accumulator_ref: its
// dtype check is the first that can still fail (ty's dtype is a numpy
// dtype, so a dtype string is fine here). chip "" is no configured chip:
// a rank below 2 or a dtype other than float32/int32 then fails on every
// chip, with an error that depends on the chip (the Outcome has no Error
// nor Message); ok is false when nothing known fails.
func AccEmptyRefOutcome(v Version, ref AccRef, chip string) (Outcome, bool) {
	if v.Less(AccSince) || ref.Shape == nil {
		return Outcome{}, false
	}
	badDtype := ref.Dtype != "" && ref.Dtype != "float32" && ref.Dtype != "int32"
	info, ok := accChips[chip]
	if !ok {
		if len(ref.Shape) < 2 || badDtype {
			return Outcome{Fails: true, Layer: LayerPallasLowering, Where: whereAccLowering}, true
		}
		return Outcome{}, false
	}
	fail := func(typ, msg string) (Outcome, bool) {
		return Outcome{Fails: true, Layer: LayerPallasLowering, Error: typ, Message: msg, Where: whereAccLowering}, true
	}
	if info.Accumulators == 0 {
		return fail("ValueError", "Accumulators are not available on TPU "+chip)
	}
	if ref.MXU < 0 {
		return Outcome{}, false
	}
	m, n := 1, 0
	if len(ref.Shape) > 0 {
		n = ref.Shape[len(ref.Shape)-1]
		for _, d := range ref.Shape[:len(ref.Shape)-1] {
			m *= d
		}
	}
	if ref.MXU >= info.MXUs || m%info.Sublanes != 0 || len(ref.Shape) < 2 || n != info.ColumnSize {
		return fail("AssertionError", "")
	}
	if m/info.Sublanes > info.Accumulators {
		return Outcome{}, false // an overflow, whose message names the ref's offset
	}
	if ref.Dtype == "" {
		return Outcome{}, false
	}
	if badDtype {
		return fail("ValueError", "Acc ref dtype must be float32 or int32, got "+ref.Dtype)
	}
	if m <= 0 {
		return fail("ValueError", "The product of the major dimensions must be a multiple of "+
			strconv.Itoa(info.Sublanes)+", but got "+strconv.Itoa(m))
	}
	return Outcome{}, false
}

const whereAccLowering = "jax/_src/pallas/mosaic/lowering.py"

// AccMeshOutcome is CoreMemorySpace's ValueError for `pltpu.ACC(mxu_id) @
// mesh` (AccMemorySpace.__matmul__, 0.11.2 and later): no mesh lists an
// accumulator space among its supported_memory_spaces, and JAX prints the
// space as ACC(mxu_id=N). mxu is -1 when not literal; meshRepr "" when the
// mesh's repr is not known.
func AccMeshOutcome(mxu int, meshRepr string) Outcome {
	id := "{mxu_id}"
	if mxu >= 0 {
		id = strconv.Itoa(mxu)
	}
	if meshRepr == "" {
		meshRepr = "{mesh}"
	}
	return Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError",
		Message: "Memory space ACC(mxu_id=" + id + ") is not supported by mesh " + meshRepr, Where: "jax/_src/pallas/core.py"}
}
