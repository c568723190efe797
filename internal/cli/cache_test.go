package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCacheGivesSameResults: a cold run, a warm run, a run after an edit
// and a run over a corrupted cache all print what --no-cache prints.
func TestCacheGivesSameResults(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.pallas-ls]\njax-version = \"0.11\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "k.py"), []byte(testKernel), 0o644)
	cache := filepath.Join(t.TempDir(), "cache")
	check := func(extra ...string) string {
		t.Helper()
		_, out, _ := runIn(t, dir, false, noEnv, append([]string{"check", "--format", "json"}, extra...)...)
		return out
	}
	want := check("--no-cache")
	for _, step := range []string{"cold", "warm"} {
		if got := check("--cache-dir", cache); got != want {
			t.Fatalf("%s run differs from --no-cache:\n%s\nwant\n%s", step, got, want)
		}
	}
	entries := 0
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			entries++
			os.WriteFile(p, []byte("corrupt"), 0o644)
		}
		return nil
	})
	if entries == 0 {
		t.Fatal("nothing was cached")
	}
	if got := check("--cache-dir", cache); got != want {
		t.Fatalf("run over a corrupt cache differs:\n%s", got)
	}
	os.WriteFile(filepath.Join(dir, "k.py"), []byte("x = 1\n"), 0o644)
	if got, fresh := check("--cache-dir", cache), check("--no-cache"); got != fresh {
		t.Fatalf("run after an edit differs from --no-cache:\n%s\nwant\n%s", got, fresh)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "512K": 512 << 10, "64M": 64 << 20, "2g": 2 << 30, "64MiB": 64 << 20, "10MB": 10 << 20} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "M", "-1", "lots", "99999999999G"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) accepted", bad)
		}
	}
}
