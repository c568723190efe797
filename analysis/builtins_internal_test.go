package analysis

import (
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// isinstance() and callable() are folded only where Python's answer is
// known; everything else stays Unknown (both branches run).
func TestBuiltinFolding(t *testing.T) {
	str := &vConst{C: ir.Const{Kind: ir.ConstStr, S: "x"}}
	boolean := &vConst{C: ir.Const{Kind: ir.ConstBool, B: true}}
	none := &vConst{C: ir.Const{Kind: ir.ConstNone}}
	fn := &vFunc{}
	tuple, list := &vSeq{}, &vSeq{List: true}
	typ := func(names ...string) value {
		if len(names) == 1 {
			return &vExternal{Qual: "builtins." + names[0]}
		}
		s := &vSeq{}
		for _, n := range names {
			s.Items = append(s.Items, &vExternal{Qual: "builtins." + n})
		}
		return s
	}
	for _, c := range []struct {
		name      string
		v, t      value
		is, known bool
	}{
		{"str is str", str, typ("str"), true, true},
		{"function is no str", fn, typ("str"), false, true},
		{"None is no str", none, typ("str"), false, true},
		{"bool is int", boolean, typ("int"), true, true},
		{"str in (int, str)", str, typ("int", "str"), true, true},
		{"tuple is no list", tuple, typ("list"), false, true},
		{"a list or set display is no str", list, typ("str"), false, true},
		{"a list or set display: list or set is not known", list, typ("list"), false, false},
		{"... nor a set", list, typ("set", "dict"), false, false},
		{"unknown value", unknown, typ("str"), false, false},
		{"a workspace or external class", str, &vExternal{Qual: "jax.Array"}, false, false},
	} {
		is, known := isInstanceOf(c.v, c.t)
		if is != c.is || known != c.known {
			t.Errorf("%s: isInstanceOf = %v, %v; want %v, %v", c.name, is, known, c.is, c.known)
		}
	}
	in := &interp{}
	for _, c := range []struct {
		name            string
		v               value
		callable, known bool
	}{
		{"function", fn, true, true},
		{"string", str, false, true},
		{"None", none, false, true},
		{"join of functions", &vUnion{Alts: []value{fn, &vPartial{}}}, true, true},
		{"join of a function and None", &vUnion{Alts: []value{fn, none}}, false, false},
		{"unknown", unknown, false, false},
		{"external name", &vExternal{Qual: "jax.numpy.pi"}, false, false},
	} {
		callable, known := in.isCallable(c.v)
		if callable != c.callable || known != c.known {
			t.Errorf("%s: isCallable = %v, %v; want %v, %v", c.name, callable, known, c.callable, c.known)
		}
	}
}
