package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pallas-ls/pallas-ls/analysis"
)

// TestFixKeepsMode: an executable script stays executable after --fix.
func TestFixKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.py")
	writeTestFile(t, path, testKernel, 0o755)
	code, _, stderr := runIn(t, dir, false, noEnv, "check", "--fix", "--jax-version", "0.11")
	if code != 0 || !strings.Contains(stderr, "Fixed 1 problem.") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", st.Mode().Perm())
	}
}

// TestFixRefusesSymlinkOutOfRoot: a checked-out repository cannot make
// --fix write outside the checked tree; the run exits 2, the target is
// untouched, and the report still shows the finding (what is on disk).
func TestFixRefusesSymlinkOutOfRoot(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim.py")
	writeTestFile(t, outside, testKernel, 0o644)
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link.py")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	code, stdout, stderr := runIn(t, dir, false, noEnv, "check", "--fix", "--jax-version", "0.11", "link.py")
	if code != exitError || !strings.Contains(stderr, "outside") {
		t.Errorf("exit %d, stderr %q; want 2 and a refusal", code, stderr)
	}
	if data, _ := os.ReadFile(outside); string(data) != testKernel {
		t.Errorf("file outside the root was rewritten:\n%s", data)
	}
	if !strings.Contains(stdout, "PAL301") {
		t.Errorf("report should show the unfixed finding:\n%s", stdout)
	}
}

// TestRevertBroken: a pass whose result gained syntax errors in a file is
// undone for that file, which gets no more fixes.
func TestRevertBroken(t *testing.T) {
	e := &env{stderr: new(strings.Builder), workDir: "/w"}
	c := &checkRun{e: e, f: &checkFlags{}}
	st := &fixState{srcs: map[string][]byte{"/w/a.py": []byte("new a"), "/w/b.py": []byte("new b")},
		frozen: map[string]bool{}, fixedIn: map[string]int{}}
	prev := map[string][]byte{"/w/a.py": []byte("old a"), "/w/b.py": []byte("old b")}
	note := func(file string) analysis.Diagnostic {
		return analysis.Diagnostic{Code: "note", Location: analysis.Location{File: file}}
	}
	before := []analysis.Diagnostic{note("/w/b.py")}
	after := []analysis.Diagnostic{note("/w/a.py"), note("/w/b.py")}
	if !c.revertBroken(st, prev, before, after) {
		t.Fatal("nothing reverted")
	}
	if string(st.srcs["/w/a.py"]) != "old a" || !st.frozen["/w/a.py"] {
		t.Errorf("a.py not reverted and frozen: %q", st.srcs["/w/a.py"])
	}
	if string(st.srcs["/w/b.py"]) != "new b" || st.frozen["/w/b.py"] {
		t.Errorf("b.py kept its old syntax error only; it should keep the fix")
	}
	if !strings.Contains(e.stderr.(*strings.Builder).String(), "a.py: a fix would introduce a syntax error") {
		t.Errorf("no warning: %q", e.stderr)
	}
}

func TestRootFor(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "pkg", "sub", "a.py"), "", 0o644)
	c := &checkRun{e: &env{workDir: dir}, f: &checkFlags{paths: []string{".", "pkg", "pkg/sub/a.py"}}}
	if got, want := c.rootFor(filepath.Join(dir, "pkg", "sub", "a.py")), filepath.Join(dir, "pkg", "sub"); got != want {
		t.Errorf("rootFor = %s, want %s", got, want)
	}
	c.f.paths = nil
	if got := c.rootFor(filepath.Join(dir, "x.py")); got != dir {
		t.Errorf("default root %s, want the working directory %s", got, dir)
	}
}
