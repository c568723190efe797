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

// SpecTreeOutcome: in_specs (what "in_specs") or out_specs ("out_specs")
// of another length than the operands or out_shape.
func SpecTreeOutcome(v Version, what string, specs, values int) Outcome {
	o := Outcome{Fails: true, Layer: LayerTrace, Error: "ValueError", Where: whereCore}
	switch {
	case v.Less(V(0, 4, 31)) && what == "in_specs":
		o.Message = "Pytree specs for arguments and `in_specs` must match: {tree} vs. {tree}"
	case v.Less(V(0, 4, 31)):
		o.Message = "Pytree specs for `out_shape` and `out_specs` must match: {tree} vs. {tree}"
	case what == "in_specs":
		inputs := "`inputs`"
		if v.Less(V(0, 6, 0)) {
			inputs = "inputs"
		}
		o.Message = fmt.Sprintf("Pytree for `in_specs` and %s do not match. There are 1 mismatches, including:\n"+
			"    * `in_specs` is a tuple of length %d but %s is a tuple of length %d, so the lengths do not match", inputs, specs, inputs, values)
	default:
		o.Message = fmt.Sprintf("Pytree for `out_specs` and `out_shape` do not match. There are 1 mismatches, including:\n"+
			"    * `out_specs` is a tuple of length %d but `out_shape` is a tuple of length %d, so the lengths do not match", specs, values)
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
