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
func SetMemoryLimit(sourceBytes int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(max(512<<20, 20*sourceBytes))
}
