package safefs

import "sync"

// writes is held shared by every write in progress and exclusively, for
// good, once the process is stopping.
var writes sync.RWMutex

// Writing marks a write of the user's tree or of the cache as in progress
// until the returned function is called. Hold it from the creation of a
// temporary file to its rename (or removal), so that a process stopped by
// a signal leaves each file whole, old or new, and no temporary file.
// After StopWrites it blocks forever: the process is about to exit.
func Writing() (done func()) {
	writes.RLock()
	return writes.RUnlock
}

// StopWrites waits for the writes in progress to finish and makes every
// later Writing call wait forever. The signal handler calls it just before
// exiting.
func StopWrites() { writes.Lock() }
