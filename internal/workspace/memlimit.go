package workspace

import (
	"os"
	"runtime/debug"
)

// SetMemoryLimit gives the process a soft heap limit scaled to the Python
// it analyses (check: what it read; the server: its index and open
// buffers), unless GOMEMLIMIT says otherwise. Whole-program analysis keeps every
// analysed file's summary live, and with Go's default GC pacing the heap
// may grow to twice that before a collection; a soft limit makes the GC
// collect earlier instead (it never fails an allocation), which keeps a
// check of a tree like JAX's (25 MB of Python) near 575 MB resident. The
// limit grows with the source (20 bytes of heap per byte of Python, at
// least 512 MiB): a limit below the live heap would make the GC run
// continuously, which at a million lines tripled the run time.
//
// Both numbers are at a knee (check --no-cache, 2 cores, 2026-12-02): on
// the six real trees under one root (56 MB of Python, about 700 MB live
// at the peak) 15 and 12 times the source took 1.7 and 2.2 times the CPU
// for 17-18% less resident memory; a floor of 128 MiB let tpu-inference
// and sglang-jax (9.5 MB each) peak about 17% and 34% lower but took
// about 1.15 and 1.5 times the CPU (sglang-jax's live heap is nearer 20
// times its source).
func SetMemoryLimit(sourceBytes int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(max(512<<20, 20*sourceBytes))
}
