package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestSymlinkLoopTerminates(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "", "sub/b.py": ""})
	symlink(t, "..", filepath.Join(root, "sub", "up"))
	symlink(t, root, filepath.Join(root, "sub", "abs"))
	got := discover(t, root, DiscoverOptions{})
	assertFiles(t, got, "a.py", "sub/b.py")
}

func TestSymlinkedDirectoryFollowedOnce(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"lib/k.py": ""})
	writeTree(t, root, map[string]string{"main.py": ""})
	symlink(t, filepath.Join(outside, "lib"), filepath.Join(root, "a_lib"))
	symlink(t, filepath.Join(outside, "lib"), filepath.Join(root, "b_lib")) // same tree again
	symlink(t, "main.py", filepath.Join(root, "alias.py"))
	got := discover(t, root, DiscoverOptions{})
	assertFiles(t, got, "a_lib/k.py", "alias.py", "main.py")
}

func TestDanglingSymlinkSkippedSilently(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": ""})
	symlink(t, "missing.py", filepath.Join(root, "gone.py"))
	symlink(t, "missing-dir", filepath.Join(root, "gone"))
	got := discover(t, root, DiscoverOptions{}) // fails on any warning
	assertFiles(t, got, "a.py")
}

func TestUnreadableDirectoryIsAWarning(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any directory")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "", "locked/b.py": ""})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	files, warnings, err := Discover(nil, DiscoverOptions{WorkDir: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Display != "a.py" {
		t.Errorf("files %+v", files)
	}
	want := "pallas-ls: warning: locked: cannot read directory: permission denied"
	if len(warnings) != 1 || warnings[0].Error() != want {
		t.Errorf("warnings %v, want [%s]", warnings, want)
	}
}

func TestUnreadableDirectoryWalkGoesOn(t *testing.T) {
	// Root can read anything, so simulate the failure with a directory that
	// disappears between listing and reading: the walk must not stop.
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "", "z/b.py": ""})
	w := newWalker(root, DiscoverOptions{})
	if err := w.walkDir(filepath.Join(root, "nope"), components(root), root+"/nope", rules{}, false); err != nil {
		t.Fatal(err)
	}
	if len(w.warnings) != 1 || !strings.Contains(w.warnings[0].Error(), "nope: cannot read directory: no such file") {
		t.Errorf("warnings %v", w.warnings)
	}
}
