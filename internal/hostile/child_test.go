package hostile

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The bounds every hostile run must stay within.
const (
	// runBound is the wall time one run may take; a healthy run on these
	// small trees takes well under a second.
	runBound = 20 * time.Second
	// rssCap is the peak resident memory one run may reach. The trees are
	// tiny: what grows past this is reading a device or a huge file.
	rssCap = 512 << 20
)

var bin string // the binary under test

func TestMain(m *testing.M) {
	if runtime.GOOS != "linux" {
		fmt.Println("hostile: skipped (needs Linux: FIFOs, /dev/zero, /proc)")
		os.Exit(0)
	}
	code, err := buildAndRun(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func buildAndRun(m *testing.M) (int, error) {
	if b := os.Getenv("PALLAS_LS_HOSTILE_BIN"); b != "" {
		bin = b
		return m.Run(), nil
	}
	dir, err := os.MkdirTemp("", "hostile-bin-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "pallas-ls")
	build := exec.Command("go", "build", "-o", bin, "./cmd/pallas-ls")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("go build: %v\n%s", err, out)
	}
	return m.Run(), nil
}

// result is how one run of the binary ended.
type result struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	peakRSS        int64 // bytes
	rssCap         int64
	killed         string
}

// child is a started run of the binary.
type child struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr syncBuffer
	start  time.Time
	peak   int64
	killed string
	mu     sync.Mutex
	done   chan struct{}
	rssCap int64 // rssCap unless a test states another
}

// start runs the binary in dir with args, in its own process group, with
// the watchdog on; env adds variables to a clean environment.
func start(t *testing.T, dir string, stdin io.Reader, env []string, args ...string) *child {
	t.Helper()
	return startCmd(t, dir, env, args, func(c *child) {
		c.cmd.Stdin = stdin
		c.cmd.Stdout = &c.stdout
	})
}

// startCmd starts the binary after setup has connected its input and
// output.
func startCmd(t *testing.T, dir string, env, args []string, setup func(*child)) *child {
	t.Helper()
	c := &child{t: t, done: make(chan struct{}), rssCap: rssCap}
	c.cmd = exec.Command(bin, args...)
	c.cmd.Dir = dir
	setup(c)
	c.cmd.Stderr = &c.stderr
	c.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}, env...)
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.start = time.Now()
	if err := c.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	go c.watch()
	return c
}

// watch polls the child's RSS and kills its group when it passes rssCap
// or runBound: the protection of the machine as much as the assertion.
func (c *child) watch() {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-tick.C:
		}
		rss := rssOf(c.cmd.Process.Pid)
		c.mu.Lock()
		c.peak = max(c.peak, rss)
		switch {
		case rss > c.rssCap && c.killed == "":
			c.killed = fmt.Sprintf("resident memory %d MiB passed the %d MiB cap", rss>>20, c.rssCap>>20)
		case time.Since(c.start) > runBound && c.killed == "":
			c.killed = fmt.Sprintf("still running after %v", runBound)
		}
		killed := c.killed != ""
		c.mu.Unlock()
		if killed {
			syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		}
	}
}

// rssOf reads VmRSS from /proc (0 once the process is gone).
func rssOf(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// signal sends sig to the child.
func (c *child) signal(sig syscall.Signal) {
	c.cmd.Process.Signal(sig)
}

// wait waits for the child and returns how it ended, peak memory from
// rusage (the kernel's own accounting) or the watchdog, whichever is
// larger.
func (c *child) wait() result {
	err := c.cmd.Wait()
	close(c.done)
	r := result{stdout: c.stdout.String(), stderr: c.stderr.String(), elapsed: time.Since(c.start), rssCap: c.rssCap}
	c.mu.Lock()
	r.peakRSS, r.killed = c.peak, c.killed
	c.mu.Unlock()
	if ru, ok := c.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSS = max(r.peakRSS, ru.Maxrss<<10)
	}
	r.code = c.cmd.ProcessState.ExitCode()
	if ee, ok := err.(*exec.ExitError); ok && !ee.Exited() {
		r.code = -1
	}
	return r
}

// run runs the binary to the end.
func run(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return start(t, dir, nil, env, args...).wait()
}

// bounded fails the test unless the run ended by itself within the time
// and memory bounds, with one of the exit codes allowed and no Go panic.
func bounded(t *testing.T, r result, codes ...int) {
	t.Helper()
	if r.killed != "" {
		t.Fatalf("killed: %s\nstderr:\n%s", r.killed, tail(r.stderr))
	}
	if r.peakRSS > r.rssCap {
		t.Errorf("peak RSS %d MiB, cap %d MiB", r.peakRSS>>20, r.rssCap>>20)
	}
	ok := false
	for _, c := range codes {
		ok = ok || r.code == c
	}
	if !ok {
		t.Errorf("exit %d, want one of %v\nstderr:\n%s", r.code, codes, tail(r.stderr))
	}
	for _, bad := range []string{"panic:", "goroutine ", "runtime error"} {
		if strings.Contains(r.stderr, bad) {
			t.Errorf("stderr has %q:\n%s", bad, tail(r.stderr))
		}
	}
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// snapshot is a tree as seen without opening anything but regular files:
// each path with its type, mode, size and (for regular files) content hash.
type snapshot map[string]string

// snap records dir; FIFOs and devices are described, never opened.
func snap(t *testing.T, dir string) snapshot {
	t.Helper()
	s := snapshot{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		desc := fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		case d.Type().IsRegular():
			desc += " " + hashFile(p)
		}
		s[p] = desc
		return nil
	})
	return s
}

// hashFile hashes a file, or its first and last MiB when it is large (the
// huge sparse files; their size and mtime are in the description too).
func hashFile(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	if st, err := f.Stat(); err == nil && st.Size() > 16<<20 {
		io.CopyN(h, f, 1<<20)
		f.Seek(-1<<20, io.SeekEnd)
	}
	io.Copy(h, f)
	return fmt.Sprintf("%x", h.Sum(nil))
}

// same reports the differences between two snapshots.
func (s snapshot) same(t *testing.T, what string, after snapshot) {
	t.Helper()
	for p, d := range s {
		if a, ok := after[p]; !ok {
			t.Errorf("%s: %s was deleted", what, p)
		} else if a != d {
			t.Errorf("%s: %s changed: %s -> %s", what, p, d, a)
		}
	}
	for p := range after {
		if _, ok := s[p]; !ok {
			t.Errorf("%s: %s was created", what, p)
		}
	}
}

// writeFiles creates files (relative path -> content) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
