package analysis

import "testing"

// Folding follows Python's int semantics and gives up past its bounds.
func TestFoldInt(t *testing.T) {
	for _, c := range []struct {
		op   string
		x, y int64
		want int64
		ok   bool
	}{
		{"//", 7, 2, 3, true}, {"//", -7, 2, -4, true}, {"%", -7, 2, 1, true}, {"%", 7, -2, -1, true},
		{"**", 2, 10, 1024, true}, {"**", 2, 80, 0, false}, {"//", 1, 0, 0, false}, {"*", 1 << 40, 1 << 40, 0, false},
		{"-", 512, 4, 508, true}, {"<<", 1, 2, 0, false},
	} {
		got, ok := foldInt(c.op, c.x, c.y)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%d %s %d = %d, %v; want %d, %v", c.x, c.op, c.y, got, ok, c.want, c.ok)
		}
	}
	tup := &vSeq{Items: []value{intValue(8)}}
	if s, ok := foldBinOp("+", tup, tup).(*vSeq); !ok || len(s.Items) != 2 {
		t.Error("tuple concatenation not folded")
	}
	if s, ok := foldBinOp("*", tup, intValue(3)).(*vSeq); !ok || len(s.Items) != 3 {
		t.Error("tuple repetition not folded")
	}
	if foldBinOp("*", tup, intValue(1000)) != nil {
		t.Error("repetition past maxFoldedLen folded")
	}
	if foldBinOp("*", &vSeq{}, intValue(1<<62)) != nil {
		t.Error("an empty tuple repeated 2**62 times folded (or looped)")
	}
	if v, ok := foldCall("jax.experimental.pallas.cdiv", args{pos: []value{intValue(10), intValue(4)}}); !ok || v.(*vConst).C.I != 3 {
		t.Error("pl.cdiv(10, 4) != 3")
	}
	if v, ok := foldCall("builtins.len", args{pos: []value{tup}}); !ok || v.(*vConst).C.I != 1 {
		t.Error("len((8,)) != 1")
	}
}
