package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileRefusesSpecialFiles: a FIFO (no writer: a blocking open
// would hang), a directory and a device are refused at once, by kind.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Skip("no symlinks:", err)
	}
	for path, kind := range map[string]string{fifo: "FIFO", dir: "directory", link: "character device"} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(path, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), kind) {
				t.Errorf("%s: err = %v, want not a regular file (%s)", path, err, kind)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFile blocked", path)
		}
	}
}

// TestReadFileFIFOSwappedIn: a file replaced by a FIFO between the stat
// and the open (here: opened directly) does not block.
func TestReadFileFIFOSwappedIn(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	done := make(chan error, 1)
	go func() {
		fh, err := openNonBlocking(fifo)
		if err == nil {
			_, err = readOpened(fifo, fh, 100)
			fh.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("err = %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("open of a FIFO blocked")
	}
}

func TestReadFileLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("12345"), 0o644)
	if data, err := ReadFile(path, 5); err != nil || string(data) != "12345" {
		t.Errorf("at the limit: %q %v", data, err)
	}
	if _, err := ReadFile(path, 4); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "larger than 4 bytes") {
		t.Errorf("over the limit: %v", err)
	}
}

// TestReadFileInRefusesEscapes: a symlink out of the root, at the end or
// in the middle of the path, is refused; one inside is followed.
func TestReadFileInRefusesEscapes(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)
	os.WriteFile(filepath.Join(root, "real"), []byte("r"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "file-link"))
	os.Symlink(outside, filepath.Join(root, "dir-link"))
	os.Symlink("real", filepath.Join(root, "inside-link"))
	for _, name := range []string{"file-link", "dir-link/secret", "../" + filepath.Base(outside) + "/secret"} {
		_, err := ReadFileIn(root, filepath.Join(root, name), 100)
		if !errors.Is(err, ErrOutside) {
			t.Errorf("%s: err = %v, want ErrOutside", name, err)
		}
	}
	if data, err := ReadFileIn(root, filepath.Join(root, "inside-link"), 100); err != nil || string(data) != "r" {
		t.Errorf("inside link: %q %v", data, err)
	}
}

func TestProjectRoot(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "repo", ".git"), 0o755)
	os.MkdirAll(filepath.Join(dir, "repo", "a", "b"), 0o755)
	if got := ProjectRoot(filepath.Join(dir, "repo", "a", "b")); got != filepath.Join(dir, "repo") {
		t.Errorf("inside a repository: %s", got)
	}
	if got := ProjectRoot(dir); got != dir {
		if _, err := os.Lstat(filepath.Join(got, ".git")); err != nil {
			t.Errorf("outside a repository: %s, want %s", got, dir)
		}
	}
}

// TestStopWritesWaitsForWriters: StopWrites returns only after the write
// in progress ends.
func TestStopWritesWaitsForWriters(t *testing.T) {
	done := Writing()
	stopped := make(chan struct{})
	go func() { StopWrites(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("StopWrites did not wait for the writer")
	case <-time.After(50 * time.Millisecond):
	}
	done()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("StopWrites never returned")
	}
	writes.Unlock() // for the other tests of this process
}
