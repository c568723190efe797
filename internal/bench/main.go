package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

func main() {
	if dir := os.Getenv(parseChildEnv); dir != "" {
		os.Exit(parseChild(context.Background(), dir, os.Stdout))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit code, and its
// deferred clean-up (temp dir, subprocesses) runs even on Ctrl-C, which
// cancels ctx.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	tmp, err := os.MkdirTemp("", "pallas-ls-bench-")
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	b := &bench{o: o, tmp: tmp, log: stderr, info: hostInfo(o)}
	if b.bin, err = b.binary(ctx); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	if o.labelsVs != "" {
		return b.runLabels(ctx, stdout)
	}
	if len(o.copies) > 0 {
		return b.runMonorepo(ctx, stdout)
	}
	failed := false
	if o.dir != "" {
		r := b.runTree(ctx, o.dir)
		b.results = append(b.results, r)
		failed = len(r.Errors) > 0
	}
	for _, n := range o.sizes {
		r := b.runSize(ctx, n)
		b.results = append(b.results, r)
		failed = failed || len(r.Errors) > 0
		if ctx.Err() != nil {
			break
		}
	}
	if err := b.report(stdout); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	if failed || ctx.Err() != nil {
		return 1
	}
	return 0
}

// bench is one invocation: the binary under test and the results so far.
type bench struct {
	o       *options
	tmp     string
	bin     string
	built   bool
	log     io.Writer
	info    string
	results []*sizeResult
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "bench: "+format+"\n", args...)
}

func hostInfo(o *options) string {
	return fmt.Sprintf("seed %d, %d CPUs (GOMAXPROCS %d), %s/%s, %s", o.seed, runtime.NumCPU(),
		runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// binary returns -bin, or builds ./cmd/pallas-ls of this module.
func (b *bench) binary(ctx context.Context) (string, error) {
	if b.o.bin != "" {
		return filepath.Abs(b.o.bin)
	}
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	mod := strings.TrimSpace(string(out))
	if err != nil || mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("cannot find the module to build (run from the repository, or give -bin): %v", err)
	}
	bin := filepath.Join(b.tmp, "pallas-ls")
	b.logf("building ./cmd/pallas-ls")
	start := time.Now()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/pallas-ls")
	cmd.Dir = filepath.Dir(mod)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/pallas-ls: %v\n%s", err, out)
	}
	b.logf("built in %.1f s", time.Since(start).Seconds())
	b.built = true
	return bin, nil
}
