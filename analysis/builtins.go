package analysis

import "github.com/pallas-ls/pallas-ls/analysis/ir"

// Builtins folded where the value is known well enough: callable() and
// isinstance() against builtin types, the tests a decorator with optional
// arguments makes (`def named_scope(arg=None, *, name=None): if
// isinstance(arg, str): ...; if callable(arg): return decorator(arg)`).
// Left Unknown, both branches run and join, and the decorated method
// becomes a join of the wrapper and the decorator itself.

func boolConst(b bool) value { return &vConst{C: ir.Const{Kind: ir.ConstBool, B: b}} }

// isCallable reports whether v is callable, when that is known.
func (in *interp) isCallable(v value) (callable, known bool) {
	switch t := v.(type) {
	case *vFunc, *vClass, *vPartial, *vJitted:
		return true, true
	case *vConst, *vSeq, *vDict:
		return false, true
	case *vInstance:
		if t.Class != nil && in.classAttr(t.Class, "__call__", 0) != nil {
			return true, true
		}
	case *vUnion:
		for i, alt := range t.Alts {
			b, ok := in.isCallable(alt)
			if !ok || i > 0 && b != callable {
				return false, false
			}
			callable = b
		}
		return callable, true
	}
	return false, false
}

// builtinTypes are the builtin classes isInstanceOf decides for.
var builtinTypes = map[string]bool{
	"builtins.str": true, "builtins.int": true, "builtins.float": true, "builtins.bool": true,
	"builtins.bytes": true, "builtins.tuple": true, "builtins.list": true, "builtins.dict": true,
	"builtins.set": true,
}

// isInstanceOf reports isinstance(v, t) when t is a builtin type (or a
// literal tuple of them) and v a literal, a display or a workspace
// function or class: what each is, is known.
func isInstanceOf(v, t value) (is, known bool) {
	var types []string
	switch tt := t.(type) {
	case *vExternal:
		types = []string{tt.Qual}
	case *vSeq:
		for _, it := range tt.Items {
			e, ok := it.(*vExternal)
			if !ok {
				return false, false
			}
			types = append(types, e.Qual)
		}
	default:
		return false, false
	}
	if isSpecTypes(types) {
		return isSpecInstance(v)
	}
	for _, q := range types {
		if !builtinTypes[q] {
			return false, false
		}
	}
	var kind string
	switch vv := v.(type) {
	case *vFunc, *vClass, *vPartial:
		kind = "" // an instance of no builtin type above
	case *vConst:
		switch vv.C.Kind {
		case ir.ConstNone:
			kind = ""
		case ir.ConstBool:
			kind = "bool"
		case ir.ConstInt:
			kind = "int"
		case ir.ConstStr:
			kind = "str"
		case ir.ConstFloat:
			kind = "float"
		default:
			return false, false
		}
	case *vSeq:
		kind = "tuple"
		if vv.List {
			// A list or a set display (both build a vSeq with List set):
			// which one is not recorded.
			for _, q := range types {
				if q == "builtins.list" || q == "builtins.set" {
					return false, false
				}
			}
			kind = "list"
		}
	default:
		return false, false
	}
	for _, q := range types {
		switch name := q[len("builtins."):]; {
		case name == kind, name == "int" && kind == "bool":
			return true, true
		}
	}
	return false, true
}

// isSpecTypes: every type is PartitionSpec (is_leaf=lambda s:
// isinstance(s, P) in a jax.tree.map over spec trees).
func isSpecTypes(types []string) bool {
	for _, q := range types {
		if !isSpecQual(q) {
			return false
		}
	}
	return len(types) > 0
}

// isSpecInstance: whether v is known to be a PartitionSpec. A P(...)
// call is one; literal displays, constants, functions and shardings are
// not (a tuple display is a plain tuple, though PartitionSpec subclasses
// tuple); anything else is unknown.
func isSpecInstance(v value) (is, known bool) {
	switch vv := v.(type) {
	case *vExtCall:
		if isSpecQual(vv.Qual) {
			return true, true
		}
	case *vSeq, *vDict, *vConst, *vFunc, *vClass, *vPartial, *vSharding:
		return false, true
	}
	return false, false
}
