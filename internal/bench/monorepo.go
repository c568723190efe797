package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// The monorepo benchmark (-monorepo): K copies of the given real trees,
// each copy under a top folder of its own (c1/jax, c2/jax, ...), checked
// as one program, to see how a check grows with a workspace many times
// larger than any one project, and with many packages of the same name.
//
// The copies are hard links (cp -al) in the temp dir, so the trees must
// be on the temp dir's filesystem (set TMPDIR otherwise); the source trees
// are never written. The run for k copies checks a directory of symbolic
// links c1..ck to the first k copies (check follows them: each copy is a
// real directory of its own).

// monoRun is one check of k copies.
type monoRun struct {
	Copies    int     `json:"copies"`
	Lines     int     `json:"lines"`
	Bytes     int     `json:"bytes"`
	PyFiles   int     `json:"python_files"`
	Files     int     `json:"files_checked"`
	Wall      float64 `json:"wall_seconds"`
	User      float64 `json:"user_seconds"`
	Sys       float64 `json:"sys_seconds"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
	Findings  int     `json:"findings"`
	Profile   string  `json:"cpu_profile,omitempty"`
	Error     string  `json:"error,omitempty"`
}

func (r *monoRun) cpu() float64 { return r.User + r.Sys }

// parseCopies reads "3" (1, 2 and 3 copies) or "1,4,16" (those).
func parseCopies(s string) ([]int, error) {
	var out []int
	parts := strings.Split(s, ",")
	for _, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 1000 {
			return nil, fmt.Errorf("-monorepo: bad number of copies %q (1..1000)", p)
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("-monorepo: copies must increase: %s", s)
		}
		out = append(out, n)
	}
	if len(out) == 1 {
		k := out[0]
		out = out[:0]
		for i := 1; i <= k; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}

// runMonorepo builds the copies and checks each count in turn.
func (b *bench) runMonorepo(ctx context.Context, stdout io.Writer) int {
	trees := b.o.trees
	maxK := b.o.copies[len(b.o.copies)-1]
	pool := filepath.Join(b.tmp, "copies")
	names := map[string]bool{}
	for i, t := range trees {
		abs, err := filepath.Abs(t)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			fmt.Fprintln(b.log, "bench:", err)
			return 1
		}
		if names[filepath.Base(abs)] {
			fmt.Fprintf(b.log, "bench: two trees named %s\n", filepath.Base(abs))
			return 2
		}
		names[filepath.Base(abs)] = true
		trees[i] = abs
	}
	if b.o.profile != "" {
		abs, err := filepath.Abs(b.o.profile)
		if err == nil {
			err = os.MkdirAll(abs, 0o755)
		}
		if err != nil {
			fmt.Fprintln(b.log, "bench:", err)
			return 1
		}
		b.o.profile = abs // the checks run in the copies' directory
	}
	start := time.Now()
	for i := 1; i <= maxK; i++ {
		dir := filepath.Join(pool, fmt.Sprintf("c%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(b.log, "bench:", err)
			return 1
		}
		for _, t := range trees {
			// -a keeps modes and links; -l makes hard links instead of copies.
			cmd := exec.CommandContext(ctx, "cp", "-al", t, filepath.Join(dir, filepath.Base(t)))
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(b.log, "bench: cp -al %s: %v\n%s(the trees must be on the temp dir's filesystem: set TMPDIR)\n", t, err, out)
				return 1
			}
		}
	}
	b.logf("linked %d copies of %d trees in %.1f s", maxK, len(trees), time.Since(start).Seconds())
	var runs []*monoRun
	failed := false
	for _, k := range b.o.copies {
		root := filepath.Join(b.tmp, fmt.Sprintf("mono-%d", k))
		if err := os.MkdirAll(root, 0o755); err != nil {
			fmt.Fprintln(b.log, "bench:", err)
			return 1
		}
		for i := 1; i <= k; i++ {
			c := fmt.Sprintf("c%d", i)
			if err := os.Symlink(filepath.Join(pool, c), filepath.Join(root, c)); err != nil {
				fmt.Fprintln(b.log, "bench:", err)
				return 1
			}
		}
		r := b.monoCheck(ctx, root, k)
		runs = append(runs, r)
		if r.Error != "" {
			failed = true
			b.logf("%d copies: %s", k, r.Error)
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err := b.monoReport(stdout, trees, runs); err != nil {
		fmt.Fprintln(b.log, "bench:", err)
		return 1
	}
	if failed || ctx.Err() != nil {
		return 1
	}
	return 0
}

// monoCheck counts the lines check reads under root, then runs the check
// -runs times and keeps the run with the least CPU time (user+sys: the
// figure that contention on a shared machine disturbs least).
func (b *bench) monoCheck(ctx context.Context, root string, k int) *monoRun {
	r := &monoRun{Copies: k}
	py, err := readTree(ctx, root)
	if err != nil {
		r.Error = "reading the tree: " + err.Error()
		return r
	}
	for _, f := range py {
		n := lineCount(f.Src)
		r.Lines += n
		r.Bytes += len(f.Src)
	}
	r.PyFiles = len(py)
	py = nil
	b.logf("%d copies: %s lines in %d files", k, commas(r.Lines), r.PyFiles)
	var best *monoRun
	for i := 0; i < b.o.runs; i++ {
		prof := ""
		if b.o.profile != "" {
			prof = filepath.Join(b.o.profile, fmt.Sprintf("monorepo-%d.prof", k))
			if b.o.runs > 1 {
				prof = filepath.Join(b.o.profile, fmt.Sprintf("monorepo-%d-run%d.prof", k, i+1))
			}
		}
		one := *r
		if err := b.monoOnce(ctx, root, prof, &one); err != nil {
			r.Error = err.Error()
			return r
		}
		b.logf("%d copies, run %d: wall %.1f s, cpu %.1f s, peak RSS %.0f MB", k, i+1, one.Wall, one.cpu(), one.PeakRSSMB)
		if best == nil || one.cpu() < best.cpu() {
			best = &one
		}
	}
	return best
}

// monoOnce runs `check --no-cache --exit-zero --format json .` in root
// and reads the child's rusage: user and system CPU time, peak RSS.
func (b *bench) monoOnce(ctx context.Context, root, prof string, r *monoRun) error {
	ctx, cancel := context.WithTimeout(ctx, b.o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bin, "check", "--no-cache", "--exit-zero", "--format", "json", ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(b.tmp, "xdg"))
	if prof != "" {
		cmd.Env = append(cmd.Env, "PALLAS_LS_CPUPROFILE="+prof)
		r.Profile = prof
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.Wall = time.Since(start).Seconds()
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("no result within %v (killed); stderr: %s", b.o.timeout, tail(stderr.Bytes(), 800))
	}
	if err != nil {
		return fmt.Errorf("check: %v; stderr: %s", err, tail(stderr.Bytes(), 800))
	}
	var rep checkReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		return fmt.Errorf("reading check's JSON: %v", err)
	}
	r.Files, r.Findings = rep.FilesChecked, len(rep.Diagnostics)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.User = time.Duration(ru.Utime.Nano()).Seconds()
		r.Sys = time.Duration(ru.Stime.Nano()).Seconds()
		r.PeakRSSMB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return nil
}

// monoReport prints one row per number of copies, with the figures per
// line and against k times the first row (1.00 = linear growth).
func (b *bench) monoReport(w io.Writer, trees []string, runs []*monoRun) error {
	if b.o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"host": b.info, "binary": b.binDesc(), "trees": trees, "monorepo": runs})
	}
	fmt.Fprintf(w, "pallas-ls monorepo benchmark: %s\nbinary: %s\ntrees: %s\n", b.info, b.binDesc(), strings.Join(trees, " "))
	fmt.Fprintln(w, "check --no-cache of k copies (c1/..ck/) as one program; the run with the least CPU of -runs;")
	fmt.Fprintln(w, "x-linear = figure / (k/k0 x the first row's): 1.00 is linear growth")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "copies\tlines\tfiles\tchecked\twall s\tcpu s\tuser s\tsys s\tpeak RSS MB\tcpu µs/line\tRSS B/line\twall x-linear\tcpu x-linear\tRSS x-linear\tfindings\t")
	var first *monoRun
	for _, r := range runs {
		if r.Error != "" {
			fmt.Fprintf(tw, "%d\t%s\t%d\tfailed\t\t\t\t\t\t\t\t\t\t\t\t\n", r.Copies, commas(r.Lines), r.PyFiles)
			continue
		}
		if first == nil {
			first = r
		}
		f := float64(r.Copies) / float64(first.Copies)
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.2f\t%.0f\t%.2f\t%.2f\t%.2f\t%d\t\n",
			r.Copies, commas(r.Lines), r.PyFiles, r.Files, r.Wall, r.cpu(), r.User, r.Sys, r.PeakRSSMB,
			1e6*r.cpu()/float64(max(r.Lines, 1)), r.PeakRSSMB*1024*1024/float64(max(r.Lines, 1)),
			r.Wall/(f*first.Wall), r.cpu()/(f*first.cpu()), r.PeakRSSMB/(f*first.PeakRSSMB), r.Findings)
	}
	tw.Flush()
	for _, r := range runs {
		if r.Error != "" {
			fmt.Fprintf(w, "ERROR: %d copies: %s\n", r.Copies, r.Error)
		}
	}
	return nil
}
