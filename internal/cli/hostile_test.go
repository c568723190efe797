package cli

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostileTree: a tree of hostile files gets a clear, bounded outcome
// (findings, notes or skips; no crash, no stack trace), and `check`
// without --fix leaves every byte as it was.
func TestHostileTree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 21 MB tree")
	}
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	junk := make([]byte, 64<<10)
	rand.New(rand.NewSource(1)).Read(junk)
	write("pyproject.toml", []byte("[tool.pallas-ls]\njax-version = \"0.11\"\n"))
	write("huge.py", bytes.Repeat([]byte("import jax\nx = jax.numpy.ones(3)\n"), 21<<20/32))
	write("long_line.py", []byte("import jax\nx = ["+strings.Repeat("1, ", 1<<20)+"]\n"))
	write("deep.py", []byte("import jax\nx = "+strings.Repeat("(", 100000)+strings.Repeat(")", 100000)+"\n"))
	write("deep_blocks.py", []byte("import jax\n"+deepBlocks(2000)))
	write("binary.py", append([]byte("import jax\n"), junk...))
	write("bom_crlf.py", []byte("\xef\xbb\xbfimport jax\r\nfrom jax.experimental.pallas import tpu as pltpu\r\n\tpltpu.semaphore_signal(s, 1)\r\n"))
	write("lone_cr.py", []byte("import jax\rfrom jax.experimental.pallas import tpu as pltpu\rpltpu.semaphore_signal(s, 1)\r"))
	write("latin1.py", []byte("# caf\xe9\nimport jax\n"))
	os.Symlink(dir, filepath.Join(dir, "loop"))
	os.Symlink(filepath.Join(dir, "nowhere.py"), filepath.Join(dir, "dangling.py"))
	before := treeHash(t, dir)
	start := time.Now()
	code, stdout, stderr := runIn(t, dir, false, noEnv, "check", "--no-cache")
	if code != exitFindings && code != exitOK {
		t.Errorf("exit code %d, want 0 or 1\nstderr:\n%s", code, stderr)
	}
	for _, bad := range []string{"panic", "goroutine ", "runtime error"} {
		if strings.Contains(stderr, bad) || strings.Contains(stdout, bad) {
			t.Fatalf("output contains %q:\n%s", bad, stderr)
		}
	}
	if !strings.Contains(stderr, "huge.py") {
		t.Errorf("the 21 MB file is not reported as skipped:\n%s", stderr)
	}
	if !strings.Contains(stdout, "bom_crlf.py:3:2: error PAL301") || !strings.Contains(stdout, "lone_cr.py:3:1: error PAL301") {
		t.Errorf("findings after BOM/CRLF/lone CR are missing or misplaced:\n%s", stdout)
	}
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("check took %v on the hostile tree", d)
	}
	if after := treeHash(t, dir); after != before {
		t.Error("check without --fix changed the tree")
	}
}

func deepBlocks(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "pass\n")
	return b.String()
}

func treeHash(t *testing.T, dir string) [32]byte {
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, _ := os.Lstat(p)
		h.Write([]byte(p + info.Mode().String()))
		if info.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			h.Write(data)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			h.Write([]byte(target))
		}
		return nil
	})
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
