package safefs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Errors a read can unwrap to (errors.Is), besides the filesystem's own.
var (
	// ErrNotRegular: a FIFO, socket, device or directory, never opened
	// for reading.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: bigger than the limit of the read.
	ErrTooLarge = errors.New("too large")
	// ErrOutside: the real path leaves the root the read was confined to.
	ErrOutside = errors.New("outside the project")
)

// MaxConfigSize bounds every file that configures a run: settings
// (pyproject.toml, .pallas-ls.toml), requirements files and their
// includes, ignore files. Real ones are a few kilobytes.
const MaxConfigSize = 4 << 20

// ReadFile returns the content of path when it is a regular file of at
// most limit bytes. The file is stat'ed first, so a non-regular file is
// never opened, and opened with O_NONBLOCK, so one swapped in for a FIFO
// after the stat cannot block either; fstat decides on what was opened.
// The size is checked before and while reading, since the file may grow.
func ReadFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	fh, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return readOpened(path, fh, limit)
}

// readOpened checks what was actually opened, then reads at most limit+1
// bytes, so that a file growing past the limit is noticed, not truncated.
func readOpened(path string, fh *os.File, limit int64) ([]byte, error) {
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	data, err := readSized(io.LimitReader(fh, limit+1), min(st.Size(), limit))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, limit)
	}
	return data, nil
}

// readSized reads r to the end into a buffer sized for the size the file
// had when checked (one byte more, to see the end without growing): a
// checked tree's sources stay in memory for the whole run, and io.ReadAll's
// growth would leave 6% of them spare. A file that grew since is still
// read whole.
func readSized(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func check(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: path, Err: notRegular(st.Mode())}
	}
	if st.Size() > limit {
		return tooLarge(path, limit)
	}
	return nil
}

// notRegular names the kind of file in the message, which is what a user
// needs to see why a settings file was not read.
func notRegular(m fs.FileMode) error {
	kind := "special file"
	switch {
	case m.IsDir():
		kind = "directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "FIFO"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m&fs.ModeCharDevice != 0:
		kind = "character device"
	case m&fs.ModeDevice != 0:
		kind = "device"
	}
	return fmt.Errorf("%w (a %s)", ErrNotRegular, kind)
}

func tooLarge(path string, limit int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: larger than %s", ErrTooLarge, Size(limit))}
}

// Size prints a byte count the way messages state limits ("20 MiB").
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFileIn is ReadFile confined to root: path is resolved (every
// symlink of every component) and refused with ErrOutside unless the
// result lies inside root, also resolved. The resolved file is opened
// without following a final symlink, so a link swapped in after the
// resolution is refused rather than followed.
func ReadFileIn(root, path string, limit int64) ([]byte, error) {
	real, err := RealIn(root, path)
	if err != nil {
		return nil, err
	}
	st, err := os.Lstat(real)
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	fh, err := openNoFollow(real)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return readOpened(path, fh, limit)
}

// OpenRegular opens path for reading, non-blocking, and returns it only
// when what was opened is a regular file.
func OpenRegular(path string) (*os.File, error) {
	fh, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: notRegular(st.Mode())}
	}
	if err != nil {
		fh.Close()
		return nil, err
	}
	return fh, nil
}

// RealIn resolves path and returns its real path when that lies inside
// the real root; otherwise an error wrapping ErrOutside that says where
// the path leads.
// A path that is outside root even before resolution (an absolute
// "/etc/shadow", a "../../x" that climbs out) is refused without touching
// the filesystem, so whether such a file exists is never revealed.
func RealIn(root, path string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	if abs, err := filepath.Abs(path); err == nil && !Within(abs, root) && !Within(abs, realRoot) {
		return "", outside(path, abs, realRoot)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if !Within(real, realRoot) {
		return "", outside(path, real, realRoot)
	}
	return real, nil
}

func outside(path, leads, root string) error {
	return &fs.PathError{Op: "read", Path: path,
		Err: fmt.Errorf("%w (it leads to %s; the project is %s)", ErrOutside, leads, root)}
}

// Within reports whether path is root or below it, lexically (both
// absolute and clean).
func Within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ProjectRoot is the directory that reads on behalf of dir may not leave:
// the root of the repository holding dir (the nearest ancestor with a
// .git), else dir itself. A cloned repository is what a user did not
// write and may not trust; it must not make pallas-ls read /etc/shadow
// through a settings file or an include.
func ProjectRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
