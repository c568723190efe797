package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func writeTestRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFileAtomicKeepsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no execute bit on Windows")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "run.py")
	if err := os.WriteFile(path, []byte("old\r\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o755); err != nil { // umask may have dropped bits
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, dir, []byte("new\r\n")); err != nil {
		t.Fatal(err)
	}
	if got := writeTestRead(t, path); got != "new\r\n" {
		t.Errorf("content %q", got)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

func TestWriteFileAtomicNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.py")
	if err := WriteFileAtomic(path, filepath.Dir(path), []byte("x = 1")); err != nil {
		t.Fatal(err)
	}
	if got := writeTestRead(t, path); got != "x = 1" {
		t.Errorf("content %q", got)
	}
}

func TestWriteFileAtomicSymlinkInsideRoot(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "real", "a.py")
	link := filepath.Join(root, "link.py")
	os.MkdirAll(filepath.Dir(target), 0o755)
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "a.py"), link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := WriteFileAtomic(link, root, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if got := writeTestRead(t, target); got != "new\n" {
		t.Errorf("target content %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link was replaced by a file: %v %v", fi, err)
	}
}

func TestWriteFileAtomicRefusesSymlinkOutsideRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "secret.py")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"direct.py", "chain.py"} {
		link := filepath.Join(root, name)
		dest := target
		if name == "chain.py" { // a link to a link inside root that leads out
			dest = filepath.Join(root, "direct.py")
		}
		if err := os.Symlink(dest, link); err != nil {
			t.Skip("symlinks unavailable:", err)
		}
		err := WriteFileAtomic(link, root, []byte("evil\n"))
		if err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("%s: err = %v, want refusal", name, err)
		}
	}
	if got := writeTestRead(t, target); got != "keep\n" {
		t.Errorf("outside file changed to %q", got)
	}
}

func TestWriteFileAtomicDanglingSymlink(t *testing.T) {
	root := t.TempDir()
	link := filepath.Join(root, "gone.py")
	if err := os.Symlink(filepath.Join(root, "missing.py"), link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := WriteFileAtomic(link, root, []byte("x")); err == nil {
		t.Error("dangling symlink written")
	}
}
