package cli

import (
	"os"
	"runtime/debug"
)

// defaultMemoryLimit is the soft heap limit pallas-ls runs under unless
// GOMEMLIMIT says otherwise. Whole-program analysis keeps every file's
// summary live; with Go's default GC pacing the heap may then grow to
// twice that before a collection. A soft limit makes the GC collect
// earlier instead (it never fails an allocation), which keeps a check of
// a tree like JAX's (25 MB of Python) under 600 MB resident.
const defaultMemoryLimit = 512 << 20

func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}
