package pyparse

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"
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
	if src, err := os.ReadFile("../examples/kernels/ring.py"); err == nil {
		f.Add(src, append([]byte("# edit\n"), src...))
		f.Add(src, bytes.Replace(src, []byte("def "), []byte("def  "), 1))
	}
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

// TestNodeLayout: pp_reparse reads the previous version's Go nodes
// as C pp_nodes, so the two layouts must be the same.
func TestNodeLayout(t *testing.T) {
	var n Node
	var c cNode
	if unsafe.Sizeof(n) != unsafe.Sizeof(c) {
		t.Fatalf("Node is %d bytes, pp_node %d", unsafe.Sizeof(n), unsafe.Sizeof(c))
	}
	for _, f := range [][2]uintptr{
		{unsafe.Offsetof(n.Start), unsafe.Offsetof(c.start)}, {unsafe.Offsetof(n.End), unsafe.Offsetof(c.end)},
		{unsafe.Offsetof(n.Parent), unsafe.Offsetof(c.parent)}, {unsafe.Offsetof(n.next), unsafe.Offsetof(c.next)},
		{unsafe.Offsetof(n.Kind), unsafe.Offsetof(c.symbol)}, {unsafe.Offsetof(n.Field), unsafe.Offsetof(c.field)},
		{unsafe.Offsetof(n.flags), unsafe.Offsetof(c.flags)},
	} {
		if f[0] != f[1] {
			t.Fatalf("a field of Node is at offset %d, of pp_node at %d", f[0], f[1])
		}
	}
}

// TestParseLiveOnRealFiles: chains of random edits (code, comments,
// strings, indentation, half-typed constructs) to every fixture and
// example file, parsed incrementally, give at every step exactly the tree
// a fresh parse gives; the incremental walk copies the untouched subtrees
// of the previous version, which this checks.
func TestParseLiveOnRealFiles(t *testing.T) {
	var paths []string
	for _, root := range []string{"../analysis/rules/testdata", "../examples", "../analysis/testdata"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) < 20 {
		t.Fatalf("only %d files", len(paths))
	}
	pieces := []string{"# c\n", "\n", " ", "    ", "x", "(", ")", "'", "\"\"\"", "def g():\n    pass\n", "\\\n", "\t", "é",
		"if x:\n    y = 1\n", ":", "[", "]", "lambda: 0", "match x:\n    case 1:\n        pass\n", "  # trailing", ",", "\r\n", "@d\n"}
	liveEditChains(t, paths, pieces, 2, 25)
}

// liveEditChains gives each file a chain of steps random edits (pieces
// inserted, text deleted, at line starts or anywhere), parses each version
// incrementally, and checks that the tree is valid and exactly the one a
// fresh parse gives.
func liveEditChains(t *testing.T, paths, pieces []string, seed int64, steps int) {
	rng := rand.New(rand.NewSource(seed))
	if testing.Short() {
		steps /= 3
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, live, err := ParseLive(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < steps; i++ {
			at := rng.Intn(len(src) + 1)
			if j := bytes.LastIndexByte(src[:at], '\n'); rng.Intn(2) == 0 {
				at = j + 1 // a line start
			}
			end := at
			if rng.Intn(3) == 0 {
				end = min(len(src), at+rng.Intn(40))
			}
			ins := pieces[rng.Intn(len(pieces))]
			if rng.Intn(4) == 0 {
				ins = ""
			}
			src = append(append(append([]byte{}, src[:at]...), ins...), src[end:]...)
			var got *Tree
			got, live, err = ParseLive(live, src)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := Parse(src)
			if !reflect.DeepEqual(got.Nodes, want.Nodes) {
				t.Fatalf("%s, step %d: the incremental tree differs from a fresh parse", p, i)
			}
			if err := checkTree(got); err != nil {
				t.Fatalf("%s, step %d: %v", p, i, err)
			}
		}
		live.Close()
	}
}
