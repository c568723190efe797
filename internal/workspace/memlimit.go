package workspace

import (
	"os"
	"runtime/debug"
)

// SetMemoryLimit gives the server a soft heap limit scaled to the Python
// it holds (its index and open buffers), unless GOMEMLIMIT says otherwise.
// Whole-program analysis keeps every analysed file's summary live, and
// with Go's default GC pacing the heap may grow to twice that before a
// collection; a soft limit makes the GC collect earlier instead (it never
// fails an allocation). The limit grows with the source (20 bytes of heap
// per byte of Python) and is at least 512 MiB: the server keeps more than
// one run's state (the last run, to resume; recent trees), and below the
// live heap the GC would run continuously, which at a million lines
// tripled the run time.
func SetMemoryLimit(sourceBytes int64) { setMemoryLimit(sourceBytes, 512<<20) }

// SetCheckMemoryLimit is check's soft heap limit: 20 bytes of heap per
// byte of Python it read, at least 128 MiB. The live heap of a check is
// 11 to 13 bytes per byte of Python at its peak (tpu-inference, the six
// real trees under one root), so 20 leaves the GC 1.6 times the live heap;
// 15 or 12 cost the six trees 1.7 and 2.2 times the CPU for 17-20% less
// resident memory. The floor is low so that trees below 25 MB of Python
// get the same headroom as larger ones rather than Go's default (twice
// the live heap): tpu-inference (9.5 MB) peaks 17% lower for 15% more
// CPU (README, Speed).
func SetCheckMemoryLimit(sourceBytes int64) { setMemoryLimit(sourceBytes, 128<<20) }

func setMemoryLimit(sourceBytes, floor int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(max(floor, 20*sourceBytes))
}
