package pyparse

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// TestParseLiveMatchesParse: a chain of random edits parsed incrementally
// gives, at every step, exactly the tree a fresh parse gives.
func TestParseLiveMatchesParse(t *testing.T) {
	src := []byte(strings.Repeat("def f(x, y=1):\n    if x:\n        return g(x)[0]\n    é = '😀'\n\n", 40))
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"(", ")", "x", "\n", "    ", "def h():\n    pass\n", "'", "é", ":", "\r\n"}
	var live *LiveTree
	for i := 0; i < 300; i++ {
		at := rng.Intn(len(src) + 1)
		end := min(len(src), at+rng.Intn(8))
		src = append(append(append([]byte{}, src[:at]...), pieces[rng.Intn(len(pieces))]...), src[end:]...)
		var got *Tree
		var err error
		got, live, err = ParseLive(live, src)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Parse(src)
		if !reflect.DeepEqual(got.Nodes, want.Nodes) {
			t.Fatalf("step %d: the incremental tree differs from a fresh parse", i)
		}
	}
	live.Close()
	live.Close() // twice is fine
}

func FuzzParseLive(f *testing.F) {
	f.Add([]byte("def f(x):\n    return x\n"), []byte("def f(x, y):\n    return x + y\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		_, live, err := ParseLive(nil, a)
		if err != nil {
			return
		}
		got, live, err := ParseLive(live, b)
		defer live.Close()
		if err != nil {
			return
		}
		want, _ := Parse(b)
		if !reflect.DeepEqual(got.Nodes, want.Nodes) {
			t.Fatalf("incremental parse of %q after %q differs from a fresh parse", b, a)
		}
	})
}
