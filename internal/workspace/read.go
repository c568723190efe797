package workspace

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// MaxFileSize bounds what ReadAll loads. Hand-written Python is far
// smaller; bigger files are generated or vendored, and parsing them would
// cost memory and time for no finding.
const MaxFileSize = 20 << 20 // 20 MiB

// ErrTooLarge marks a file skipped for exceeding MaxFileSize. Front ends
// report it as a warning rather than a failure (errors.Is).
var ErrTooLarge = errors.New("larger than 20 MiB; skipped")

// Loaded is one file's content, or why there is none. Err is a complete
// message ("pallas-ls: a.py: no such file or directory") that unwraps to
// the cause (fs.ErrNotExist, ErrTooLarge, a context error).
type Loaded struct {
	File
	Src []byte
	Err error
}

// ReadAll reads files in parallel and returns them in input order. A file
// that vanished since discovery or cannot be read gets an Err entry; the
// others are unaffected. After ctx is cancelled the remaining entries carry
// ctx.Err().
func ReadAll(ctx context.Context, files []File) []Loaded {
	out := make([]Loaded, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), len(files)) {
		wg.Go(func() {
			for i := range jobs {
				out[i] = load(ctx, files[i])
			}
		})
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

func load(ctx context.Context, f File) Loaded {
	if err := ctx.Err(); err != nil {
		return Loaded{File: f, Err: err}
	}
	src, err := readFile(f.Path)
	if err != nil {
		return Loaded{File: f, Err: &pathError{fmt.Sprintf("pallas-ls: %s: %s", f.Display, reason(err)), err}}
	}
	return Loaded{File: f, Src: src}
}

// readFile reads a regular file of at most MaxFileSize bytes through
// safefs, so a FIFO or device (named on the command line, or swapped in
// since discovery) is refused at once instead of blocking or streaming
// forever.
func readFile(path string) ([]byte, error) {
	src, err := safefs.ReadFile(path, MaxFileSize)
	if errors.Is(err, safefs.ErrTooLarge) {
		return nil, ErrTooLarge
	}
	return src, err
}
