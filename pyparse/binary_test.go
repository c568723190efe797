package pyparse

import (
	"reflect"
	"testing"
)

func TestTreeBinaryRoundTrip(t *testing.T) {
	src := []byte("import jax\n\ndef f(x, *, y=1):\n    return g(x)[0] if y else None  # c\n")
	tr, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeTree(src, tr.AppendBinary(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Nodes, tr.Nodes) {
		t.Fatal("round trip changed the nodes")
	}
	bad := tr.AppendBinary(nil)
	bad[len(bad)-10] ^= 0xff
	for name, data := range map[string][]byte{"flipped": bad, "short": bad[:20], "empty": nil} {
		if _, err := DecodeTree(src, data); err == nil && name != "flipped" {
			t.Errorf("%s: decoded without error", name)
		}
	}
	if _, err := DecodeTree(src[:5], tr.AppendBinary(nil)); err == nil {
		t.Error("a tree of another source decoded")
	}
}

func FuzzDecodeTree(f *testing.F) {
	src := []byte("def f(:\n  x = [1, 2]\n")
	tr, _ := Parse(src)
	f.Add(tr.AppendBinary(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		back, err := DecodeTree(src, data)
		if err != nil {
			return
		}
		// A tree that decodes must be safe to walk.
		for id := NodeID(0); int(id) < len(back.Nodes); id++ {
			back.Children(id)
			back.Text(id)
		}
		back.SyntaxErrors()
		back.Comments()
	})
}
