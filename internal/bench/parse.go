package main

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// parseAll parses every file with pyparse.Parse on GOMAXPROCS workers and
// nothing else: the floor any whole-program check must pay. Files go out
// largest first, so that one big file started last cannot leave the other
// workers idle. It returns the wall time, the number of syntax-error
// regions, and the first parse failure.
func parseAll(files []File) (time.Duration, int, error) {
	files = append([]File(nil), files...)
	sort.SliceStable(files, func(i, j int) bool { return len(files[i].Src) > len(files[j].Src) })
	var (
		next, errs atomic.Int64
		firstErr   error
		once       sync.Once
		wg         sync.WaitGroup
	)
	start := time.Now()
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(len(files)); i = next.Add(1) - 1 {
				t, err := pyparse.Parse(files[i].Src)
				if err != nil {
					once.Do(func() { firstErr = err })
					continue
				}
				errs.Add(int64(len(t.SyntaxErrors())))
			}
		}()
	}
	wg.Wait()
	return time.Since(start), int(errs.Load()), firstErr
}
