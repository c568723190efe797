package cli

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// newFileMode is the mode of a file that did not exist before. The mode is
// always set explicitly because a temporary file is created 0600, which
// would silently hide a rewritten file from the rest of a team.
const newFileMode fs.FileMode = 0o644

// ErrChanged is returned by ReplaceFile when the file on disk is no
// longer the content the fixes were computed from (an editor saved it
// while the check ran): it is left alone.
var ErrChanged = errors.New("changed on disk while pallas-ls ran; not fixed")

// WriteFileAtomic writes data to path; ReplaceFile without a content check.
func WriteFileAtomic(path, root string, data []byte) error {
	return ReplaceFile(path, root, nil, data)
}

// ReplaceFile writes data to path through a temporary file in the same
// directory and a rename, so an interrupted --fix leaves either the old or
// the new content, never half a file. When old is not nil, the file must
// still hold exactly old just before the rename, else ErrChanged.
//
// What may be written is decided on the real path: every symlink of
// every component is resolved, and a file whose real path is outside the
// real root (the checked tree) is refused, whether the link is the file
// itself or a directory on the way. All file operations then go through
// an os.Root opened at that real root, so a link swapped in meanwhile
// cannot lead out either. The file's mode and owner are kept; a
// read-only file is refused (as ruff does), and so is a file with other
// hard links, since a rename would silently split them.
func ReplaceFile(path, root string, old, data []byte) error {
	t, err := resolveTarget(path, root)
	if err != nil {
		return err
	}
	r, err := os.OpenRoot(t.root)
	if err != nil {
		return err
	}
	defer r.Close()
	keep, err := t.keep(r)
	if err != nil {
		return err
	}
	return t.replace(r, keep, old, data)
}

// target is the file to write, as a path relative to the real root.
type target struct {
	path string // as the user sees it, for messages
	root string // the real root
	rel  string
}

// resolveTarget resolves path (or, for a new file, its directory) and
// checks that it stays inside root.
func resolveTarget(path, root string) (*target, error) {
	realRoot, err := realAbs(root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return nil, fmt.Errorf("not writing %s: resolving symlink: %w", path, err)
		}
		var dir string
		if dir, err = filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
			real = filepath.Join(dir, filepath.Base(path))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("not writing %s: %w", path, err)
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	if !safefs.Within(real, realRoot) || real == realRoot {
		return nil, fmt.Errorf("not writing %s: it resolves to %s, outside %s", path, real, realRoot)
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil {
		return nil, err
	}
	return &target{path: path, root: realRoot, rel: rel}, nil
}

func realAbs(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, nil
	}
	return abs, nil
}

// keepAttrs is what the replacement inherits from the file it replaces.
type keepAttrs struct {
	mode     fs.FileMode
	uid, gid int
	chown    bool
}

// keep reads the attributes to keep and refuses what --fix must not
// replace: a non-regular file, a read-only one, one with hard links.
func (t *target) keep(r *os.Root) (keepAttrs, error) {
	st, err := r.Lstat(t.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return keepAttrs{mode: newFileMode}, nil
	}
	if err != nil {
		return keepAttrs{}, err
	}
	if !st.Mode().IsRegular() {
		return keepAttrs{}, fmt.Errorf("not writing %s: not a regular file", t.path)
	}
	k := keepAttrs{mode: st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)}
	o := ownerOf(st)
	if o.links > 1 {
		return k, fmt.Errorf("not writing %s: it has %d hard links, which replacing it would break", t.path, o.links)
	}
	if !writable(filepath.Join(t.root, t.rel), st.Mode()) {
		return k, fmt.Errorf("not writing %s: it is read-only", t.path)
	}
	k.uid, k.gid, k.chown = o.uid, o.gid, o.known && (o.uid != os.Geteuid() || o.gid != os.Getegid())
	return k, nil
}

// replace writes the temporary file, gives it the old file's owner and
// mode, checks the old content and renames, all under the write guard.
func (t *target) replace(r *os.Root, k keepAttrs, old, data []byte) (err error) {
	defer safefs.Writing()()
	tmp, f, err := createTemp(r, t.rel)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			r.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if k.chown {
		if err = f.Chown(k.uid, k.gid); err != nil {
			return fmt.Errorf("not writing %s: cannot keep its owner (uid %d, gid %d): %w", t.path, k.uid, k.gid, err)
		}
	}
	if err = f.Chmod(k.mode); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if old != nil && !t.still(r, old) {
		return ErrChanged
	}
	return r.Rename(tmp, t.rel)
}

// still reports whether the file holds exactly want.
func (t *target) still(r *os.Root, want []byte) bool {
	f, err := r.OpenFile(t.rel, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	got, err := io.ReadAll(io.LimitReader(f, int64(len(want))+1))
	return err == nil && bytes.Equal(got, want)
}

// tempName is the temporary file's name: the target's name cut to fit,
// so that the whole stays within NAME_MAX (255 bytes) for any file name.
func tempName(base string) string {
	const keep = 100
	if len(base) > keep {
		cut := keep
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	var b [8]byte
	rand.Read(b[:])
	return "." + base + ".pallas-ls-" + hex.EncodeToString(b[:]) + ".tmp"
}

// createTemp creates a fresh temporary file beside rel.
func createTemp(r *os.Root, rel string) (string, *os.File, error) {
	dir := filepath.Dir(rel)
	for range 10 {
		name := filepath.Join(dir, tempName(filepath.Base(rel)))
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, fmt.Errorf("cannot create a temporary file beside %s", rel)
}
