package pyparse

import (
	"bytes"
	"testing"
)

// TestParseWithoutArena: the pooled, libc-allocated parse (the
// benchmark's reference floor) gives the same trees.
func TestParseWithoutArena(t *testing.T) {
	src := bytes.Repeat([]byte("class A:\n    def f(self, x):\n        return [y for y in x if y]\n"), 50)
	want, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	SetArena(false)
	defer SetArena(true)
	got, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	sameNodes(t, "without the arena", got, want)
}

func sameNodes(t *testing.T, what string, got, want *Tree) {
	t.Helper()
	if len(got.Nodes) != len(want.Nodes) {
		t.Fatalf("%s: %d nodes, want %d", what, len(got.Nodes), len(want.Nodes))
	}
	for j := range got.Nodes {
		if got.Nodes[j] != want.Nodes[j] {
			t.Fatalf("%s: node %d is %+v, want %+v", what, j, got.Nodes[j], want.Nodes[j])
		}
	}
}

// TestParseSpills: a parse whose arena would pass its cap takes the rest
// from libc and frees it the usual way; the tree is the same.
func TestParseSpills(t *testing.T) {
	src := bytes.Repeat([]byte("def f(a, b=3):\n    return [a + b for _ in range(10) if a]\n"), 2000)
	want, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	setArenaCap(64 << 10)
	defer setArenaCap(0)
	for i := 0; i < 3; i++ {
		got, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		sameNodes(t, "spilled parse", got, want)
	}
}
