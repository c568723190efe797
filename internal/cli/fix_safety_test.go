package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pallas-ls/pallas-ls/internal/workspace"
)

// fixIn runs check --fix in dir and returns the exit code and stderr.
func fixIn(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	code, _, stderr := runIn(t, dir, false, noEnv, append([]string{"check", "--fix", "--jax-version", "0.11"}, args...)...)
	return code, stderr
}

// TestFixRefusesDirectorySymlinkOutOfRoot (issue 20, defect 2): a
// directory symlink inside the checked tree leads to files outside; their
// findings are reported but --fix does not write them (exit 2), while
// the file inside the tree is fixed.
func TestFixRefusesDirectorySymlinkOutOfRoot(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "lib", "victim.py")
	writeTestFile(t, victim, testKernel, 0o644)
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "mine.py"), testKernel, 0o644)
	if err := os.Symlink(filepath.Join(outside, "lib"), filepath.Join(dir, "vendor")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	code, stderr := fixIn(t, dir)
	if code != exitError || !strings.Contains(stderr, "outside") {
		t.Errorf("exit %d, stderr %q; want 2 and a refusal", code, stderr)
	}
	if got := writeTestRead(t, victim); got != testKernel {
		t.Errorf("a file outside the checked tree was rewritten:\n%s", got)
	}
	if got := writeTestRead(t, filepath.Join(dir, "mine.py")); got == testKernel {
		t.Error("the file inside the tree was not fixed")
	}
	if entries, _ := os.ReadDir(filepath.Join(outside, "lib")); len(entries) != 1 {
		t.Errorf("something was created outside the tree: %v", entries)
	}
}

// TestFixSkipsFileChangedDuringRun (issue 20, defect 6): an edit saved
// while the check ran is kept; the file is skipped with a warning.
func TestFixSkipsFileChangedDuringRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.py")
	writeTestFile(t, path, testKernel, 0o644)
	edited := testKernel + "# the user's edit\n"
	testHookBeforeWrite = func(p string) { os.WriteFile(p, []byte(edited), 0o644) }
	defer func() { testHookBeforeWrite = nil }()
	code, stderr := fixIn(t, dir)
	if got := writeTestRead(t, path); got != edited {
		t.Errorf("the concurrent edit was overwritten:\n%s", got)
	}
	if !strings.Contains(stderr, "k.py: changed on disk while pallas-ls ran; not fixed") || code != exitFindings {
		t.Errorf("exit %d, stderr %q; want 1 and a warning", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

// TestFixRefusesReadOnlyFile (issue 20, defect 6): a read-only file is not
// replaced (a rename would ignore its mode), as ruff refuses to write it.
func TestFixRefusesReadOnlyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.py")
	writeTestFile(t, path, testKernel, 0o444)
	code, stderr := fixIn(t, dir)
	if code != exitError || !strings.Contains(stderr, "k.py: not writing") || !strings.Contains(stderr, "read-only") {
		t.Errorf("exit %d, stderr %q; want 2 and a refusal", code, stderr)
	}
	if got := writeTestRead(t, path); got != testKernel {
		t.Errorf("read-only file rewritten:\n%s", got)
	}
}

// TestFixRefusesHardLinkedFile (issue 20, defect 6): a file with another
// hard link is refused: replacing it would leave the other name with the
// old content, silently.
func TestFixRefusesHardLinkedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.py")
	writeTestFile(t, path, testKernel, 0o644)
	other := filepath.Join(t.TempDir(), "other.py")
	if err := os.Link(path, other); err != nil {
		t.Skip("hard links unavailable:", err)
	}
	code, stderr := fixIn(t, dir)
	if code != exitError || !strings.Contains(stderr, "2 hard links") {
		t.Errorf("exit %d, stderr %q; want 2 and a refusal", code, stderr)
	}
	if writeTestRead(t, path) != testKernel || writeTestRead(t, other) != testKernel {
		t.Error("a hard-linked file was rewritten")
	}
}

// TestFixLongFileName (issue 20, defect 6): a file whose name is near
// NAME_MAX is fixed; the temporary name is cut to fit.
func TestFixLongFileName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, strings.Repeat("k", 250)+".py")
	writeTestFile(t, path, testKernel, 0o644)
	if code, stderr := fixIn(t, dir); code != exitOK || !strings.Contains(stderr, "Fixed 1 problem.") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if writeTestRead(t, path) == testKernel {
		t.Error("not fixed")
	}
}

// TestFixKeepsOwner (issue 20, defect 6): a file owned by someone else
// (writable by us) keeps its owner. Only root can hand a file to another
// user, so the test needs root.
func TestFixKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file another owner")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "k.py")
	writeTestFile(t, path, testKernel, 0o664)
	if err := os.Chown(path, 4242, 4343); err != nil {
		t.Skip(err)
	}
	if code, stderr := fixIn(t, dir); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := st.Sys().(*syscall.Stat_t); s.Uid != 4242 || s.Gid != 4343 || st.Mode().Perm() != 0o664 {
		t.Errorf("owner %d:%d mode %v, want 4242:4343 0664", s.Uid, s.Gid, st.Mode().Perm())
	}
}

// TestFileDeletedAfterDiscovery (issue 20, defect 9): a file that vanishes
// between discovery and reading is skipped with a note; the other files
// are checked and the exit code is theirs.
func TestFileDeletedAfterDiscovery(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "k.py"), testKernel, 0o644)
	writeTestFile(t, filepath.Join(dir, "gone.py"), "x = 1\n", 0o644)
	testHookAfterDiscover = func([]workspace.File) { os.Remove(filepath.Join(dir, "gone.py")) }
	defer func() { testHookAfterDiscover = nil }()
	code, stdout, stderr := runIn(t, dir, false, noEnv, "check", "--jax-version", "0.11")
	if code != exitFindings || !strings.Contains(stdout, "k.py:4:5: error PAL301") {
		t.Errorf("exit %d, stdout %q; want 1 and the finding in k.py", code, stdout)
	}
	if !strings.Contains(stderr, "warning: gone.py: no such file or directory (deleted since it was found; skipped)") {
		t.Errorf("stderr %q lacks the skip note", stderr)
	}
}

// TestReplaceFileSwappedDirectory: a directory on the way swapped for a
// symlink out of the tree after the path was resolved cannot lead the
// write out: the os.Root at the real root refuses it.
func TestReplaceFileSwappedDirectory(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	path := filepath.Join(root, "pkg", "k.py")
	writeTestFile(t, path, testKernel, 0o644)
	writeTestFile(t, filepath.Join(outside, "k.py"), testKernel, 0o644)
	target, err := resolveTarget(path, root)
	if err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(root, "pkg"), filepath.Join(root, "pkg-old"))
	if err := os.Symlink(outside, filepath.Join(root, "pkg")); err != nil {
		t.Skip("no symlinks:", err)
	}
	r, err := os.OpenRoot(target.root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	keep, err := target.keep(r)
	if err == nil {
		err = target.replace(r, keep, []byte(testKernel), []byte("evil\n"))
	}
	if err == nil {
		t.Error("the write through the swapped directory succeeded")
	}
	if got := writeTestRead(t, filepath.Join(outside, "k.py")); got != testKernel {
		t.Errorf("the file outside was rewritten: %q", got)
	}
}

// TestConfigNamedOutsideTree: --config FILE is read wherever it is: the
// user named it.
func TestConfigNamedOutsideTree(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "k.py"), testKernel, 0o644)
	cfg := filepath.Join(t.TempDir(), "ci.toml")
	writeTestFile(t, cfg, "ignore = [\"PAL3*\"]\n", 0o644)
	code, stdout, stderr := runIn(t, dir, false, noEnv, "check", "--jax-version", "0.11", "--config", cfg)
	if code != exitOK || !strings.Contains(stdout, "All checks passed.") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the named file's ignore applied", code, stdout, stderr)
	}
}
