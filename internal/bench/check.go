package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// checkRun is one `pallas-ls check` subprocess.
type checkRun struct {
	Seconds     float64        `json:"seconds"`
	LinesPerSec float64        `json:"lines_per_second"`
	PeakRSSMB   float64        `json:"peak_rss_mb"`
	Files       int            `json:"files_checked"`
	Findings    map[string]int `json:"findings"`
}

// checkReport is the part of `check --format json` the benchmark reads.
type checkReport struct {
	FilesChecked int `json:"files_checked"`
	Diagnostics  []struct {
		Code string `json:"code"`
	} `json:"diagnostics"`
}

// runCheck runs `bin check --exit-zero --format json [extra] .` in dir and
// measures its wall time and peak RSS (the kernel's ru_maxrss of the
// child). HOME-relative caches go to cacheRoot so a run never touches the
// user's own.
func runCheck(ctx context.Context, bin, dir, cacheRoot string, lines int, timeout time.Duration, extra ...string) (*checkRun, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := append([]string{"check", "--exit-zero", "--format", "json"}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(cacheRoot, "xdg"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("pallas-ls %v: no result within %v (killed); stderr: %s", args, timeout, tail(stderr.Bytes(), 800))
	}
	if err != nil {
		return nil, fmt.Errorf("pallas-ls %v: %v; stderr: %s", args, err, tail(stderr.Bytes(), 800))
	}
	var rep checkReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("pallas-ls %v: reading its JSON: %v", args, err)
	}
	r := &checkRun{Seconds: wall.Seconds(), LinesPerSec: float64(lines) / wall.Seconds(), Files: rep.FilesChecked,
		Findings: map[string]int{}}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.PeakRSSMB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	for _, d := range rep.Diagnostics {
		r.Findings[d.Code]++
	}
	return r, nil
}

// tail returns the last n bytes of b, for error messages.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(bytes.TrimSpace(b))
}
