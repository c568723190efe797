//go:build !race

// The race detector's shadow memory makes resident size meaningless, so
// this file is left out of `go test -race`.

package pyparse

import (
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
	if testing.Short() || asan {
		t.Skip("20,000 parses; meaningless under -asan")
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
