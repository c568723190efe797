package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

const testKernel = `from jax.experimental.pallas import tpu as pltpu

def kernel(sem):
    pltpu.semaphore_signal(sem, 1)
`

// runIn runs a command in dir and returns exit code, stdout and stderr.
func runIn(t *testing.T, dir string, tty bool, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cache := t.TempDir()
	withCache := func(k string) string {
		if k == "PALLAS_LS_CACHE_DIR" {
			return cache
		}
		return getenv(k)
	}
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		workDir: dir, getenv: withCache, stdoutTTY: tty, version: buildVersion{module: "(devel)"}}
	code := run(context.Background(), e, args)
	return code, stdout.String(), stderr.String()
}

func noEnv(string) string { return "" }

func writeTestFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // umask would clear bits
		t.Fatal(err)
	}
}

func TestMainVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"version"}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 || !strings.HasPrefix(stdout.String(), "pallas-ls ") || stderr.Len() != 0 {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args      []string
		wantPaths []string
		wantFmt   string
	}{
		{[]string{"a", "--format", "json", "b"}, []string{"a", "b"}, "json"},
		{[]string{"--format=sarif", "a"}, []string{"a"}, "sarif"},
		{[]string{"a", "--", "--format", "-x.py"}, []string{"a", "--format", "-x.py"}, "text"},
		{nil, nil, "text"},
	}
	for _, tt := range tests {
		f, err := parseCheckFlags(tt.args)
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if !slices.Equal(f.paths, tt.wantPaths) || f.format != tt.wantFmt {
			t.Errorf("%q: paths %q format %q, want %q %q", tt.args, f.paths, f.format, tt.wantPaths, tt.wantFmt)
		}
	}
}

func TestSelectRepeatedAndUpperCased(t *testing.T) {
	f, err := parseCheckFlags([]string{"--select", "pal1*,PAL301", "--select", " pal9* "})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"PAL1*", "PAL301", "PAL9*"}; !slices.Equal(f.selectCodes, want) {
		t.Errorf("select %q, want %q", f.selectCodes, want)
	}
}

func TestVersionFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.1.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}}
	v := versionFromBuildInfo(bi)
	var b bytes.Buffer
	v.write(&b)
	for _, want := range []string{"pallas-ls 0.1.0\n", "commit: abc123 (modified)\n", "go: go1.26.0\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("version output lacks %q:\n%s", want, b.String())
		}
	}
	if got := versionFromBuildInfo(&debug.BuildInfo{}).tool(); got != "(devel)" {
		t.Errorf("empty build info: %q, want (devel)", got)
	}
}

// TestColor: escape codes only on a terminal and only without NO_COLOR.
func TestColor(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "k.py"), testKernel, 0o644)
	noColor := func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}
	for _, tt := range []struct {
		tty    bool
		getenv func(string) string
		want   bool
	}{{true, noEnv, true}, {false, noEnv, false}, {true, noColor, false}} {
		_, out, _ := runIn(t, dir, tt.tty, tt.getenv, "check", "--jax-version", "0.11")
		if got := strings.Contains(out, "\x1b["); got != tt.want {
			t.Errorf("tty %v: color %v, want %v:\n%q", tt.tty, got, tt.want, out)
		}
	}
}
