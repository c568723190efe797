package pyparse

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"
)

// TestParseLiveGrammarGaps: random edits to the modern-syntax corpus,
// with pieces that make and unmake the grammar's gaps, parsed
// incrementally, give at every step the (repaired) tree a fresh parse
// gives, and a valid one. (The live tree copies unchanged subtrees from
// tree-sitter's own flat tree of the previous version, not from the
// repaired one, so the repair of a version never depends on the last.)
func TestParseLiveGrammarGaps(t *testing.T) {
	paths, _ := filepath.Glob("testdata/syntax/*.py")
	if len(paths) == 0 {
		t.Fatal("no corpus")
	}
	pieces := []string{"*", "*(", "[*", ", *", "*a.b", "(x)", "except *", "except* ", ":=", "=", "= int", "[T = int]",
		"f\"{x:=^8}\"", "x[*(i for i in r)]", "\n", " ", "(", ")", "[", "]", ",", "# c\n", "\\\n"}
	liveEditChains(t, paths, pieces, 3, 40)
}

// TestParseLiveRepairedThenEdited: a file whose tree needs repairs, edited
// elsewhere and back, keeps the repaired shape, and its live tree keeps
// tree-sitter's own tree for the next parse.
func TestParseLiveRepairedThenEdited(t *testing.T) {
	a := []byte("k = [*tpu.CoreType]\ny = x.at[*(0 for _ in r)].set(1)\nz = 1\n")
	b := bytes.Replace(a, []byte("z = 1"), []byte("z = 22"), 1)
	_, live, err := ParseLive(nil, a)
	if err != nil {
		t.Fatal(err)
	}
	if live.raw == live.flat || len(live.raw.SyntaxErrors()) == 0 {
		t.Fatal("the live tree should keep tree-sitter's tree besides the repaired one")
	}
	for _, src := range [][]byte{b, a, b} {
		var got *Tree
		got, live, err = ParseLive(live, src)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Parse(src)
		if !reflect.DeepEqual(got.Nodes, want.Nodes) || len(got.SyntaxErrors()) > 0 || gapLeft(got) != "" {
			t.Fatalf("%q: %s", src, shape(got, 0))
		}
	}
	live.Close()
}
