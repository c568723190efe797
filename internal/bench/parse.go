package main

import (
	"context"
	"encoding/json"
	"io"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

// parseChildEnv, set to a directory, makes the benchmark binary measure
// the parse-only floors of the Python files `check` would read there and
// print them as JSON (parseFloors), instead of running the benchmark.
const parseChildEnv = "PALLAS_BENCH_PARSE_DIR"

// parseFloors is what the parse child reports.
type parseFloors struct {
	Files int         `json:"files"`
	Floor parseResult `json:"floor"` // libc's allocator
	Arena parseResult `json:"arena"` // pyparse's arena, as check parses
	Err   string      `json:"error,omitempty"`
}

// parseChild is the parse child's main: the fastest of parseRuns runs of
// parseAll, first with libc's allocator, then with the arena.
func parseChild(ctx context.Context, dir string, w io.Writer) int {
	var f parseFloors
	py, err := readTree(ctx, dir)
	f.Files = len(py)
	if err == nil {
		for _, m := range []struct {
			arena bool
			dst   *parseResult
		}{{false, &f.Floor}, {true, &f.Arena}} {
			pyparse.SetArena(m.arena)
			d, errs, perr := parseAll(py)
			for i := 1; i < parseRuns && perr == nil; i++ {
				var again time.Duration
				again, _, perr = parseAll(py)
				d = min(d, again)
			}
			*m.dst = parseResult{Seconds: d.Seconds(), SyntaxErrors: errs}
			if perr != nil {
				err = perr
				break
			}
		}
	}
	if err != nil {
		f.Err = err.Error()
	}
	if json.NewEncoder(w).Encode(f) != nil || err != nil {
		return 1
	}
	return 0
}

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
