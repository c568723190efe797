package analysis

import (
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Integer arithmetic and the builtins that shapes are computed with
// (len, min, max, pl.cdiv), folded where every operand is a known int or
// tuple: block shapes and grids are written `(bm, N - 4)`, `(M // bm,)`,
// `(pl.cdiv(n, bn),)`. Anything else is a number or an array whose value
// is not known (nonNone), as before.

// maxFolded bounds the ints and tuple lengths folding produces: shapes are
// small, and nothing a program computes may grow without bound here.
const (
	maxFoldedInt = 1 << 53
	maxFoldedLen = 64
)

func (in *interp) binOp(env *scope, e *ir.Expr) value {
	vals := make([]value, 0, 2)
	for _, a := range e.Args {
		vals = append(vals, in.eval(env, a))
	}
	if len(vals) == 2 {
		if v := foldBinOp(e.Op(), vals[0], vals[1]); v != nil {
			return v
		}
		if e.Op() == "@" && isCoreMesh(vals[1]) {
			return &vOnMesh{Mesh: vals[1]}
		}
		if isTraced(vals[0]) || isTraced(vals[1]) {
			ints, op := isInt(vals[0]) && isInt(vals[1]), e.Op()
			switch {
			case op == "%" && !isStrConst(vals[0]):
				// x % n on a traced value binds jnp.remainder (str % x is
				// string formatting, never JAX's).
				in.bodyCall(remainderAPI, e)
			case op == "//" && ints:
				in.bodyCall(IntFloorDivAPI, e) // binds sign (floats: floor)
			}
			if ints && (op == "+" || op == "-" || op == "*" || op == "//" || op == "%") {
				return tracedInt
			}
			return tracedValue
		}
	}
	return nonNone // arithmetic: a number or an array, never None
}

// remainderAPI is what `%` on a traced value calls: recorded as a kernel
// body's call so that PAL215 judges it like an explicit jnp.remainder.
const remainderAPI = "jax.numpy.remainder"

// IntFloorDivAPI is what `//` on traced signed integers calls
// (jnp.floor_divide, which binds lax.sign for them): recorded as a kernel
// body's call under this name, since for floats it binds other primitives.
const IntFloorDivAPI = "jax.numpy.floor_divide(int)"

// isInt reports whether v is known to be a signed integer: a literal int
// or a traced one.
func isInt(v value) bool {
	if _, ok := intConst(v); ok {
		return true
	}
	switch v := v.(type) {
	case *vNonNone:
		return v.Int
	case *vExtCall:
		return isTraced(v)
	}
	return false
}

// isTraced reports whether v is known to be a traced JAX value: the
// result of lax.axis_index, pl.program_id or pl.num_programs, or of
// arithmetic on one.
func isTraced(v value) bool {
	switch v := v.(type) {
	case *vNonNone:
		return v.Traced
	case *vExtCall:
		return v.Qual == "jax.experimental.pallas.program_id" || v.Qual == "jax.experimental.pallas.num_programs"
	}
	return false
}

func isStrConst(v value) bool {
	c, ok := v.(*vConst)
	return ok && c.C.Kind == ir.ConstStr
}

func intConst(v value) (int64, bool) {
	if c, ok := v.(*vConst); ok && c.C.Kind == ir.ConstInt {
		return c.C.I, true
	}
	return 0, false
}

func intValue(i int64) value { return &vConst{C: ir.Const{Kind: ir.ConstInt, I: i}} }

// foldBinOp computes a op b for known ints, tuple concatenation and
// repetition; nil when not known.
func foldBinOp(op string, a, b value) value {
	if x, ok := intConst(a); ok {
		if y, ok := intConst(b); ok {
			if r, ok := foldInt(op, x, y); ok {
				return intValue(r)
			}
			return nil
		}
	}
	sa, aSeq := a.(*vSeq)
	sb, bSeq := b.(*vSeq)
	switch {
	case op == "+" && aSeq && bSeq && len(sa.Items)+len(sb.Items) <= maxFoldedLen:
		return &vSeq{Items: append(append([]value{}, sa.Items...), sb.Items...), List: sa.List}
	case op == "*" && aSeq:
		if n, ok := intConst(b); ok && n >= 0 && n <= maxFoldedLen && int(n)*len(sa.Items) <= maxFoldedLen {
			var items []value
			for range n {
				items = append(items, sa.Items...)
			}
			return &vSeq{Items: items, List: sa.List}
		}
	}
	return nil
}

func foldInt(op string, x, y int64) (int64, bool) {
	if x > maxFoldedInt || x < -maxFoldedInt || y > maxFoldedInt || y < -maxFoldedInt {
		return 0, false
	}
	var r int64
	switch op {
	case "+":
		r = x + y
	case "-":
		r = x - y
	case "*":
		if x != 0 && (y > maxFoldedInt/abs64(x) || y < -maxFoldedInt/abs64(x)) {
			return 0, false
		}
		r = x * y
	case "//":
		if y == 0 {
			return 0, false
		}
		r = floorDiv(x, y)
	case "%":
		if y == 0 {
			return 0, false
		}
		r = x - floorDiv(x, y)*y
	case "**":
		if y < 0 || y > 62 {
			return 0, false
		}
		r = 1
		for range y {
			if r != 0 && abs64(x) > maxFoldedInt/abs64(r) {
				return 0, false
			}
			r *= x
		}
	default:
		return 0, false
	}
	if r > maxFoldedInt || r < -maxFoldedInt {
		return 0, false
	}
	return r, true
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// floorDiv is Python's //: rounds toward negative infinity.
func floorDiv(x, y int64) int64 {
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}

// foldCall computes the builtins and helpers shapes use, on known ints:
// len of a known sequence, min/max, pl.cdiv, math.prod.
func foldCall(qual string, a args) (value, bool) {
	if a.opaque || len(a.kw) > 0 {
		return nil, false
	}
	switch {
	case qual == "builtins.len" && len(a.pos) == 1:
		if s, ok := a.pos[0].(*vSeq); ok {
			return intValue(int64(len(s.Items))), true
		}
		if d, ok := a.pos[0].(*vDict); ok {
			return intValue(int64(len(d.Keys))), true
		}
	case (qual == "builtins.min" || qual == "builtins.max") && len(a.pos) >= 2:
		best, ok := intConst(a.pos[0])
		for _, v := range a.pos[1:] {
			x, ok2 := intConst(v)
			if !ok || !ok2 {
				return nil, false
			}
			if (qual == "builtins.min") == (x < best) {
				best = x
			}
		}
		if ok {
			return intValue(best), true
		}
	case strings.HasSuffix(qual, ".cdiv") && strings.HasPrefix(qual, "jax.") && len(a.pos) == 2:
		x, ok1 := intConst(a.pos[0])
		y, ok2 := intConst(a.pos[1])
		if ok1 && ok2 && y != 0 {
			return intValue(-floorDiv(-x, y)), true
		}
	}
	return nil, false
}

// isCoreMesh reports whether v is a core mesh, or a join of them.
func isCoreMesh(v value) bool {
	for _, a := range alts(v) {
		if _, ok := a.(*vCoreMesh); !ok {
			return false
		}
	}
	return true
}
