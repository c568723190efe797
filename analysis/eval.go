package analysis

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

var builtinNames = map[string]bool{
	"print": true, "len": true, "range": true, "isinstance": true, "super": true, "getattr": true,
	"setattr": true, "hasattr": true, "int": true, "float": true, "str": true, "bool": true, "list": true,
	"tuple": true, "dict": true, "set": true, "zip": true, "enumerate": true, "map": true, "filter": true,
	"min": true, "max": true, "sum": true, "abs": true, "any": true, "all": true, "sorted": true,
	"reversed": true, "type": true, "object": true, "property": true, "staticmethod": true,
	"classmethod": true, "Exception": true, "ValueError": true, "TypeError": true, "NotImplementedError": true,
	"RuntimeError": true, "AssertionError": true, "KeyError": true, "iter": true, "next": true, "id": true,
	"hash": true, "repr": true, "format": true, "open": true, "divmod": true, "pow": true, "round": true,
	"vars": true, "callable": true, "frozenset": true, "slice": true, "NotImplemented": true,
}

func (in *interp) eval(env *scope, e *ir.Expr) value {
	if e == nil || !in.tick() {
		return unknown
	}
	switch e.Kind {
	case ir.ExName:
		if v, ok := env.lookup(e.Name); ok {
			for i := 0; i < 4; i++ {
				r, isRef := v.(*vScopeRef)
				if !isRef {
					return v
				}
				if v, ok = r.s.get(e.Name); !ok {
					break
				}
			}
			return unknown
		}
		if builtinNames[e.Name] {
			return &vExternal{Qual: "builtins." + e.Name}
		}
		return unknown
	case ir.ExAttr:
		return in.getattrAt(in.eval(env, e.X), e.Name, e)
	case ir.ExCall:
		return in.evalCall(env, e)
	case ir.ExConst:
		return &vConst{C: *e.Const()}
	case ir.ExTuple, ir.ExList, ir.ExSet:
		items := make([]value, 0, len(e.Args))
		list := e.Kind != ir.ExTuple
		for _, a := range e.Args {
			if a.Kind == ir.ExStarred {
				if s, ok := in.eval(env, a.X).(*vSeq); ok {
					items = append(items, s.Items...)
					list = list || s.List
					continue
				}
				return unknown
			}
			items = append(items, in.eval(env, a))
		}
		return &vSeq{Items: items, List: list}
	case ir.ExDict:
		d := &vDict{}
		for _, kw := range e.Kw() {
			d.Keys = append(d.Keys, in.eval(env, kw.Key))
			d.Items = append(d.Items, in.eval(env, kw.Value))
		}
		return d
	case ir.ExLambda:
		return in.makeFunc(env, e.Lambda())
	case ir.ExSubscript:
		return in.subscript(env, e)
	case ir.ExCompare:
		return in.compare(env, e)
	case ir.ExNot:
		if v, known := truth(in.eval(env, e.X)); known {
			return &vConst{C: ir.Const{Kind: ir.ConstBool, B: !v}}
		}
		return unknown
	case ir.ExBoolOp:
		return in.boolOp(env, e)
	case ir.ExBinOp:
		return in.binOp(env, e) // arith.go
	case ir.ExComp:
		return in.comprehension(env, e)
	case ir.ExSlice: // outside a subscript: evaluated for its calls
		for _, a := range e.Args {
			in.eval(env, a)
		}
		return unknown
	case ir.ExCond:
		c := in.eval(env, e.Args[1])
		if v, known := truth(c); known {
			if v {
				return in.eval(env, e.Args[0])
			}
			return in.eval(env, e.Args[2])
		}
		return join(in.eval(env, e.Args[0]), in.eval(env, e.Args[2]))
	}
	// Opaque: still evaluate what is nested, for the calls it makes.
	if e.X != nil {
		v := in.eval(env, e.X)
		if e.Name != "" { // walrus
			env.set(e.Name, v)
			return v
		}
	}
	for _, a := range e.Args {
		in.eval(env, a)
	}
	for _, kw := range e.Kw() {
		in.eval(env, kw.Value)
	}
	return unknown
}

func (in *interp) subscript(env *scope, e *ir.Expr) value {
	x := in.eval(env, e.X)
	if len(e.Args) == 1 && e.Args[0].Kind == ir.ExSlice {
		return in.slice(env, x, e.Args[0])
	}
	var idx value = unknown
	if len(e.Args) == 1 {
		idx = in.eval(env, e.Args[0])
	}
	switch x := x.(type) {
	case *vSeq:
		if c, ok := idx.(*vConst); ok && c.C.Kind == ir.ConstInt {
			i := int(c.C.I)
			if i < 0 {
				i += len(x.Items)
			}
			if i >= 0 && i < len(x.Items) {
				return x.Items[i]
			}
		}
	case *vDict:
		if k, ok := constStr(idx); ok {
			if v, ok := x.lookup(k); ok {
				return v
			}
		}
	case *vExtCall:
		if _, ok := collectiveResult(x); ok {
			return itemOf(x) // an item of a collective's result (eagerread.go)
		}
	case *vUnknown, *vUnion:
		if c, ok := idx.(*vConst); ok && c.C.Kind == ir.ConstInt {
			return derive(x, "["+strconv.FormatInt(c.C.I, 10)+"]") // a symbol's item
		}
	}
	return unknown
}

// comprehension runs a comprehension's element once, in a scope of its
// own where each `for` target is bound to what its iterable yields (if
// clauses are evaluated, not decided). Its value is a sequence of unknown
// length: Unknown.
func (in *interp) comprehension(env *scope, e *ir.Expr) value {
	sc := newEnv(env, env.mod)
	for _, c := range e.Kw() {
		v := in.eval(sc, c.Value)
		if s, ok := v.(*vSeq); ok && len(s.Items) == 0 && c.Key != nil {
			return unknown // over an empty literal: the element never runs
		}
		if c.Key != nil {
			in.assign(sc, c.Key, elementOf(v))
		}
	}
	in.eval(sc, e.X)
	return unknown
}

// slice is x[start:stop:step] with literal bounds: a slice of a tuple or
// list, and jax.devices()[:1], which holds exactly one device (there is
// always one).
func (in *interp) slice(env *scope, x value, sl *ir.Expr) value {
	var b [3]value
	for i, a := range sl.Args {
		b[i] = in.eval(env, a)
	}
	bound := func(v value) (int, bool, bool) { // value, is None, known
		c, ok := v.(*vConst)
		switch {
		case ok && c.C.Kind == ir.ConstNone:
			return 0, true, true
		case ok && c.C.Kind == ir.ConstInt:
			return int(c.C.I), false, true
		}
		return 0, false, false
	}
	start, startNone, ok1 := bound(b[0])
	stop, stopNone, ok2 := bound(b[1])
	_, stepNone, ok3 := bound(b[2])
	if !ok1 || !ok2 || !ok3 || !stepNone {
		return unknown
	}
	switch x := x.(type) {
	case *vSeq:
		n := len(x.Items)
		if startNone {
			start = 0
		}
		if stopNone {
			stop = n
		}
		if start < 0 {
			start = max(0, start+n)
		}
		if stop < 0 {
			stop = max(0, stop+n)
		}
		start, stop = min(start, n), min(stop, n)
		if start >= stop {
			return &vSeq{}
		}
		return &vSeq{Items: append([]value(nil), x.Items[start:stop]...)}
	case *vExtCall:
		if (x.Qual == "jax.devices" || x.Qual == "jax.local_devices") && start == 0 && stop == 1 && !stopNone {
			return &vSeq{Items: []value{nonNone}}
		}
	}
	return unknown
}

func (in *interp) boolOp(env *scope, e *ir.Expr) value {
	a := in.eval(env, e.Args[0])
	if v, known := truth(a); known {
		and := e.Op() == "and"
		if v != and { // `False and x` is False; `True or x` is True
			return a
		}
		return in.eval(env, e.Args[1])
	}
	return join(a, in.eval(env, e.Args[1]))
}

// compare folds comparisons whose operands are known: the static flags of
// jax-semantics §7 (`if axis is None`, `if n == 1: return`, `if flag:`).
func (in *interp) compare(env *scope, e *ir.Expr) value {
	vals := make([]value, len(e.Args))
	for i, a := range e.Args {
		vals[i] = in.eval(env, a)
	}
	if len(vals) != 2 || e.Op() == "" {
		return unknown
	}
	res, ok := compareValues(e.Op(), vals[0], vals[1])
	if !ok {
		return unknown
	}
	return &vConst{C: ir.Const{Kind: ir.ConstBool, B: res}}
}

func compareValues(op string, a, b value) (bool, bool) {
	if same, ok := sameEnumMember(a, b); ok && (op == "is" || op == "is not" || op == "==" || op == "!=") {
		return same == (op == "is" || op == "=="), true
	}
	ca, aConst := a.(*vConst)
	cb, bConst := b.(*vConst)
	switch op {
	case "is", "is not":
		var same, known bool
		switch {
		case aConst && bConst && (ca.C.Kind == ir.ConstNone || cb.C.Kind == ir.ConstNone):
			same, known = ca.C.Kind == cb.C.Kind, true
		case bConst && cb.C.Kind == ir.ConstNone && definitelyNotNone(a),
			aConst && ca.C.Kind == ir.ConstNone && definitelyNotNone(b):
			same, known = false, true
		case aConst && bConst && ca.C.Kind == ir.ConstBool && cb.C.Kind == ir.ConstBool:
			same, known = ca.C.B == cb.C.B, true
		}
		if op == "is not" {
			same = !same
		}
		return same, known
	}
	if !aConst || !bConst || ca.C.Kind != cb.C.Kind {
		if aConst && bConst && (op == "==" || op == "!=") && (ca.C.Kind == ir.ConstNone) != (cb.C.Kind == ir.ConstNone) {
			return op == "!=", true
		}
		return false, false
	}
	var order int
	switch ca.C.Kind {
	case ir.ConstInt:
		order = cmp.Compare(ca.C.I, cb.C.I)
	case ir.ConstStr:
		order = cmp.Compare(ca.C.S, cb.C.S)
	case ir.ConstBool:
		order = cmp.Compare(b2i(ca.C.B), b2i(cb.C.B))
	case ir.ConstNone:
		order = 0
	default:
		return false, false
	}
	switch op {
	case "==":
		return order == 0, true
	case "!=":
		return order != 0, true
	case "<":
		return order < 0, true
	case "<=":
		return order <= 0, true
	case ">":
		return order > 0, true
	case ">=":
		return order >= 0, true
	}
	return false, false
}

func definitelyNotNone(v value) bool {
	switch v := v.(type) {
	case *vConst:
		return v.C.Kind != ir.ConstNone
	case *vFunc, *vSeq, *vDict, *vClass, *vInstance, *vPartial, *vMesh, *vPallas, *vModule:
		return true
	}
	return false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// sameEnumMember compares two members of one JAX enum class, read as
// external names (pltpu.CoreType.TC is pltpu.CoreType.SC_SCALAR_SUBCORE:
// False), as a test parameterized over them compares its parameter: both
// names under jax., the same class (its name capitalized), members spelled
// in capitals. Anything else is not known.
func sameEnumMember(a, b value) (same, ok bool) {
	ea, okA := a.(*vExternal)
	eb, okB := b.(*vExternal)
	if !okA || !okB {
		return false, false
	}
	ca, ma, okA := enumMember(ea.Qual)
	cb, mb, okB := enumMember(eb.Qual)
	if !okA || !okB || ca != cb {
		return false, false
	}
	return ma == mb, true
}

func enumMember(qual string) (class, member string, ok bool) {
	if !strings.HasPrefix(qual, "jax.") {
		return "", "", false
	}
	i := strings.LastIndexByte(qual, '.')
	class, member = qual[:i], qual[i+1:]
	j := strings.LastIndexByte(class, '.')
	cls := class[j+1:]
	if cls == "" || cls[0] < 'A' || cls[0] > 'Z' || member == "" || strings.ToUpper(member) != member || member[0] < 'A' || member[0] > 'Z' {
		return "", "", false
	}
	return class, member, true
}
