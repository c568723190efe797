package hostile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalBound is how long a run may take to exit after a signal: the
// run's grace period (2 s) and some slack for a loaded machine.
const signalBound = 5 * time.Second

// bigTree writes n packages of the example project's kernels, a tree that
// takes several seconds to check, and returns the content of legacy.py
// before and after --fix (computed on one package alone).
func bigTree(t *testing.T, n int) (dir string, orig, fixed []byte) {
	t.Helper()
	ring, err1 := os.ReadFile(filepath.Join("..", "..", "examples", "kernels", "ring.py"))
	legacy, err2 := os.ReadFile(filepath.Join("..", "..", "examples", "kernels", "legacy.py"))
	train, err3 := os.ReadFile(filepath.Join("..", "..", "examples", "train.py"))
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	one := t.TempDir()
	writeFiles(t, one, map[string]string{"legacy.py": string(legacy)})
	if r := run(t, one, nil, "check", "--fix", "--no-cache", "--jax-version", "0.11", "."); r.code > 1 {
		t.Fatalf("fixing one copy: exit %d\n%s", r.code, r.stderr)
	}
	fixed, _ = os.ReadFile(filepath.Join(one, "legacy.py"))
	dir = t.TempDir()
	files := map[string]string{"pyproject.toml": "[tool.pallas-ls]\njax-version = \"0.11\"\n"}
	for i := range n {
		p := fmt.Sprintf("p%04d/", i)
		files[p+"ring.py"], files[p+"legacy.py"], files[p+"train.py"] = string(ring), string(legacy), string(train)
	}
	writeFiles(t, dir, files)
	return dir, legacy, fixed
}

// signalled starts a run, sends sig once the run has had time to get
// going, and returns how it ended and how long after the signal.
func signalled(t *testing.T, dir string, sig syscall.Signal, args ...string) (result, time.Duration) {
	t.Helper()
	c := start(t, dir, nil, nil, args...)
	time.Sleep(500 * time.Millisecond)
	if err := c.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the run ended before the signal; make the tree bigger")
	}
	at := time.Now()
	c.signal(sig)
	r := c.wait()
	return r, time.Since(at)
}

// TestSignalsEndCheckPromptly (issue 20, defect 4): Ctrl-C ends a check
// with 130 and SIGTERM with 143, within signalBound, and the cache holds
// only whole entries (no temporary file, every entry with its header).
func TestSignalsEndCheckPromptly(t *testing.T) {
	t.Parallel()
	dir, _, _ := bigTree(t, 1000)
	for sig, want := range map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143} {
		cache := t.TempDir()
		r, after := signalled(t, dir, sig, "check", "--cache-dir", cache, ".")
		if r.code != want || after > signalBound {
			t.Errorf("%v: exit %d after %v, want %d within %v\nstderr:\n%s", sig, r.code, after, want, signalBound, tail(r.stderr))
		}
		if !strings.Contains(r.stderr, "pallas-ls: interrupted") {
			t.Errorf("%v: stderr does not say interrupted:\n%s", sig, tail(r.stderr))
		}
		t.Logf("%v: exit %d after %v", sig, r.code, after)
		wholeCache(t, cache)
	}
}

// wholeCache fails on a temporary file or a file without an entry header
// anywhere under the cache directory.
func wholeCache(t *testing.T, cache string) {
	t.Helper()
	filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		switch {
		case strings.HasPrefix(info.Name(), ".tmp-"):
			t.Errorf("temporary file left in the cache: %s", p)
		case info.Name() == "CACHEDIR.TAG":
		case !bytes.HasPrefix(data, []byte("pallas-ls-entry-1\x00")):
			t.Errorf("partial or foreign entry in the cache: %s (%d bytes)", p, len(data))
		}
		return nil
	})
}

// TestSignalDuringFix (issue 20, defect 4): a --fix run interrupted at any
// point leaves every file either as it was or fully fixed, and no
// temporary file in the tree.
func TestSignalDuringFix(t *testing.T) {
	t.Parallel()
	dir, orig, fixed := bigTree(t, 1000)
	r, after := signalled(t, dir, syscall.SIGINT, "check", "--fix", "--no-cache", ".")
	if r.code != 130 || after > signalBound {
		t.Errorf("exit %d after %v, want 130 within %v\nstderr:\n%s", r.code, after, signalBound, tail(r.stderr))
	}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		if strings.Contains(info.Name(), ".pallas-ls-") {
			t.Errorf("temporary file left: %s", p)
		}
		if info.Name() == "legacy.py" {
			if data, _ := os.ReadFile(p); !bytes.Equal(data, orig) && !bytes.Equal(data, fixed) {
				t.Errorf("%s is neither the original nor the fixed file", p)
			}
		}
		return nil
	})
}

// TestSignalEndsServer: SIGTERM ends a language server waiting for its
// client with 143, promptly.
func TestSignalEndsServer(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{"k.py": kernel})
	s := newServe(t, proj)
	s.initialize(proj)
	at := time.Now()
	s.c.signal(syscall.SIGTERM)
	r := s.c.wait()
	if r.code != 143 || time.Since(at) > signalBound {
		t.Errorf("exit %d after %v, want 143 within %v\nstderr:\n%s", r.code, time.Since(at), signalBound, tail(r.stderr))
	}
}

// TestConcurrentEditsDuringFix (issue 20, defect 6): files saved by
// someone else while --fix runs keep those edits; the others are fixed.
// The edits land during the analysis, before any write: if the run were
// so fast that they landed after its writes, they would still be what the
// files hold, so the test cannot fail for timing alone.
func TestConcurrentEditsDuringFix(t *testing.T) {
	t.Parallel()
	dir, orig, fixed := bigTree(t, 500)
	c := start(t, dir, nil, nil, "check", "--fix", "--no-cache", ".")
	time.Sleep(300 * time.Millisecond)
	edited := append(append([]byte{}, orig...), "# saved by the user during the run\n"...)
	for i := range 100 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%04d", i), "legacy.py"), edited, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	during := c.cmd.Process.Signal(syscall.Signal(0)) == nil
	r := c.wait()
	bounded(t, r, 1)
	for i := range 500 {
		data, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("p%04d", i), "legacy.py"))
		want, what := fixed, "the fix"
		if i < 100 {
			want, what = edited, "the user's edit"
		}
		if !bytes.Equal(data, want) {
			t.Errorf("p%04d/legacy.py does not hold %s", i, what)
		}
	}
	if during && strings.Count(r.stderr, "changed on disk while pallas-ls ran; not fixed") != 100 {
		t.Errorf("want 100 warnings about files changed during the run:\n%s", tail(r.stderr))
	}
}
