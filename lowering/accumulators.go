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
