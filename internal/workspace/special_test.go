package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it has not returned after d: on a
// build where the read blocks, the test fails instead of hanging.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
}

// TestReadAllRefusesSpecialFiles (issue 20, defects 3 and 4): a FIFO named
// on the command line, or a .py link to /dev/zero, is refused at once with
// its kind named, instead of blocking forever or growing memory without
// bound.
func TestReadAllRefusesSpecialFiles(t *testing.T) {
	root := t.TempDir()
	mkfifo(t, filepath.Join(root, "fifo.py"))
	symlink(t, "/dev/zero", filepath.Join(root, "zero.py"))
	var got []Loaded
	within(t, 10*time.Second, "ReadAll", func() {
		got = ReadAll(context.Background(), []File{fileAt(root, "fifo.py"), fileAt(root, "zero.py")})
	})
	for i, kind := range []string{"a FIFO", "a character device"} {
		if got[i].Err == nil || !strings.Contains(got[i].Err.Error(), "not a regular file ("+kind+")") {
			t.Errorf("%s: err = %v", got[i].Display, got[i].Err)
		}
	}
}

// TestHostileIgnoreFiles (issue 20, defects 3 and 11): ignore files that
// are FIFOs, links to /dev/zero, links out of the project, or huge, are
// warned about and not applied; the walk ends promptly with every file.
func TestHostileIgnoreFiles(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"ignore-all": "*\n"})
	cases := map[string]func(t *testing.T, dir string){
		"fifo": func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, ".gitignore")) },
		"exclude-fifo": func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
			mkfifo(t, filepath.Join(dir, ".git", "info", "exclude"))
		},
		"dev-zero": func(t *testing.T, dir string) { symlink(t, "/dev/zero", filepath.Join(dir, ".gitignore")) },
		"escape": func(t *testing.T, dir string) {
			symlink(t, filepath.Join(outside, "ignore-all"), filepath.Join(dir, ".gitignore"))
		},
		"huge": func(t *testing.T, dir string) {
			fh, _ := os.Create(filepath.Join(dir, ".gitignore"))
			fh.WriteString("*\n")
			fh.Truncate(1 << 30) // sparse
			fh.Close()
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"a.py": "", "sub/b.py": ""})
			build(t, dir)
			var files []File
			var warns []error
			within(t, 10*time.Second, "Discover", func() {
				var err error
				files, warns, err = Discover(nil, DiscoverOptions{WorkDir: dir})
				if err != nil {
					t.Error(err)
				}
			})
			if len(files) != 2 {
				t.Errorf("files %v, want a.py and sub/b.py", files)
			}
			if len(warns) != 1 || !strings.Contains(warns[0].Error(), "cannot read ignore file") {
				t.Errorf("warnings %v, want one about the ignore file", warns)
			}
		})
	}
}

// TestReadAllVanishedFileUnwraps: a file deleted after discovery reports
// fs.ErrNotExist, which front ends turn into a skip note.
func TestReadAllVanishedFileUnwraps(t *testing.T) {
	got := ReadAll(context.Background(), []File{fileAt(t.TempDir(), "gone.py")})
	if !errors.Is(got[0].Err, os.ErrNotExist) {
		t.Errorf("err = %v", got[0].Err)
	}
}
