package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// Every file this package reads goes through safefs: only regular files
// (opened non-blocking, so a FIFO never hangs), at most
// safefs.MaxConfigSize bytes (so /dev/zero or a huge file cannot exhaust
// memory). Files found by looking around a checked file, and the
// requirements files they include, must also resolve inside their project
// (safefs.ProjectRoot): a cloned repository cannot make pallas-ls read
// /etc/shadow through a symlinked pyproject.toml or "-r /etc/shadow".

// readNamed reads a file the user named (--config FILE).
func readNamed(path string) ([]byte, error) {
	data, err := safefs.ReadFile(path, safefs.MaxConfigSize)
	return data, notRead(path, err)
}

// readFound reads a settings file found near a checked file.
func readFound(path string) ([]byte, error) {
	return readIn(safefs.ProjectRoot(filepath.Dir(path)), path)
}

// readIn reads a file that must resolve inside root.
func readIn(root, path string) ([]byte, error) {
	data, err := safefs.ReadFileIn(root, path, safefs.MaxConfigSize)
	return data, notRead(path, err)
}

// notRead turns a refused or failed read into "FILE: not read: why"; a
// missing file stays fs.ErrNotExist, which callers treat as no file.
func notRead(path string, err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return &readError{path, err}
}

type readError struct {
	path string
	err  error
}

func (e *readError) Error() string { return e.path + ": not read: " + reason(e.err) }
func (e *readError) Unwrap() error { return e.err }

// reason is the cause of a filesystem error without the path, which the
// message already names.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// present reports whether path names something other than a directory
// (a regular file, a FIFO, a device): a settings file that exists,
// readable or not. A dangling link names nothing.
func present(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
