package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// newFileMode is the mode of a file that did not exist before. The mode is
// always set explicitly because os.CreateTemp makes 0600 files, which
// would silently hide a rewritten file from the rest of a team.
const newFileMode fs.FileMode = 0o644

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so an interrupted --fix leaves either the old or
// the new content, never half a file. The original file's mode is kept.
//
// When path is a symlink, the file written is its target and the link
// stays a link. A symlink whose target lies outside root (the project
// being checked) is refused: following it would let a checked-out
// repository make --fix rewrite arbitrary files of the user's.
func WriteFileAtomic(path, root string, data []byte) error {
	target, err := writeTarget(path, root)
	if err != nil {
		return err
	}
	mode := newFileMode
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return replaceFile(target, data, mode)
}

// writeTarget resolves path to the file to replace, enforcing the root
// rule for symlinks. A regular file is written where it is even outside
// root: the user named it, or it was found under a path the user named.
func writeTarget(path, root string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("not writing %s: resolving symlink: %w", path, err)
	}
	inside, err := isWithin(target, root)
	if err != nil {
		return "", err
	}
	if !inside {
		return "", fmt.Errorf("not writing %s: it is a symlink to %s, outside %s", path, target, root)
	}
	return target, nil
}

// isWithin reports whether the resolved path lies under root, comparing
// both with symlinks resolved (a root reached through a symlink, such as
// macOS's /tmp, would otherwise never contain anything). An empty root is
// the working directory.
func isWithin(resolved, root string) (bool, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return false, err
	}
	if r, err := filepath.EvalSymlinks(absRoot); err == nil {
		absRoot = r
	}
	abs, err := filepath.Abs(resolved)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(absRoot, abs)
	if err != nil {
		return false, nil // another volume
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)), nil
}

// replaceFile writes the temporary file completely, flushes it to disk and
// only then renames it over target; any failure removes the temporary file.
func replaceFile(target string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".pallas-ls-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}
