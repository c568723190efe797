package pyparse

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// rss is the resident set size in bytes, from /proc (Linux).
func rss(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.Atoi(f[1])
	return pages * os.Getpagesize()
}

// TestParseLeaksNothing: one-shot parses take their tree-sitter memory
// from a per-thread arena that is dropped after each parse (a thread keeps
// one chunk for the next). 20,000 parses leave the process no bigger.
func TestParseLeaksNothing(t *testing.T) {
	if testing.Short() || asan || race {
		t.Skip("20,000 parses; meaningless under -asan and -race")
	}
	src := []byte("def f(x):\n    return [y for y in x]\n")
	parse := func(n int) {
		for i := 0; i < n; i++ {
			if _, err := Parse(src); err != nil {
				t.Fatal(err)
			}
		}
	}
	runtime.LockOSThread() // one thread, one kept chunk
	defer runtime.UnlockOSThread()
	parse(2000)
	debug.FreeOSMemory()
	before := rss(t)
	parse(20000)
	debug.FreeOSMemory()
	if grew := rss(t) - before; grew > 4<<20 {
		t.Errorf("RSS grew by %d KB over 20,000 parses", grew>>10)
	}
}

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
