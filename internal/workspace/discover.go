package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// File is one file to check.
type File struct {
	Path    string // absolute, cleaned; the path as walked (symlinks not resolved)
	Display string // relative to the working directory when under it, else absolute (spec.md §2)
}

// DiscoverOptions tunes Discover. The zero value walks the arguments
// honouring .gitignore files and the default excludes only.
type DiscoverOptions struct {
	// Exclude are extra gitignore-syntax globs applied everywhere, relative
	// to ExcludeBase (default WorkDir). The CLI passes the exclude list of
	// the settings file it loaded, with ExcludeBase set to that file's
	// directory.
	Exclude     []string
	ExcludeBase string
	// WorkDir resolves relative arguments and shortens Display; default
	// os.Getwd().
	WorkDir string
	// ConfigExcludes, when set, reports the exclude globs of the settings
	// file that dir itself holds (ok=false: none there). Discover asks it
	// for each walked directory and for the ancestors of each argument, and
	// the nearest file's globs replace those of files further up, since the
	// nearest config file to a checked file wins (spec.md §6).
	// config.Resolver.ExcludesIn fits. Its errors stop the walk.
	ConfigExcludes func(dir string) (globs []string, ok bool, err error)
	// Budget bounds the walk (the zero value: unbounded). Past it the walk
	// stops, keeps what it found, and says so in a warning that unwraps
	// to ErrBudget. The language server sets one, so that a workspace
	// folder of / or of a home directory cannot exhaust memory.
	Budget Budget
	// Context, when set, stops the walk when done (a warning unwrapping to
	// its error).
	Context context.Context
}

// Budget is what one Discover may take in.
type Budget struct {
	Files   int   // Python files kept
	Bytes   int64 // their total size
	Entries int   // directory entries looked at, kept or not
}

// ErrBudget marks the warning of a walk that stopped at its Budget.
var ErrBudget = errors.New("discovery budget spent")

// Discover expands PATH arguments (default ".") into the files to check,
// sorted by Path and deduplicated. Directories yield their .py files, minus
// what ignore files, excludes and the default skip list leave out; a file
// named as an argument is always checked, whatever its name or ignore
// status. warnings are problems that did not stop the walk (an unreadable
// directory); err is a fatal problem such as an argument that does not
// exist. Both are complete messages, ready to print.
func Discover(paths []string, opts DiscoverOptions) (files []File, warnings []error, err error) {
	workDir, err := resolveWorkDir(opts.WorkDir)
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	w := newWalker(workDir, opts)
	for _, arg := range paths {
		err := w.argument(arg)
		if errors.Is(err, errStop) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return w.result(), w.warnings, nil
}

func resolveWorkDir(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("pallas-ls: cannot determine the working directory: %w", err)
		}
		return wd, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("pallas-ls: %s: %w", dir, err)
	}
	return abs, nil
}

// argument handles one PATH: an explicit file is taken as is; a directory
// is walked.
func (w *walker) argument(arg string) error {
	abs := arg
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.workDir, arg)
	}
	abs = filepath.Clean(abs)
	st, err := os.Stat(abs)
	if err != nil {
		return &pathError{fmt.Sprintf("pallas-ls: %s: %s", arg, reason(err)), err}
	}
	if !st.IsDir() {
		w.add(abs)
		return nil
	}
	return w.walkRoot(abs)
}

// reason is the bare cause of a filesystem error ("no such file or
// directory"), since our messages already name the path once.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Display is the spelling of path shown to users: relative to workDir when
// under it, else absolute.
func Display(path, workDir string) string {
	rel, err := filepath.Rel(workDir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

func (w *walker) add(path string) {
	if _, dup := w.files[path]; !dup {
		w.files[path] = File{Path: path, Display: Display(path, w.workDir)}
	}
}

// errStop unwinds a walk that spent its budget or was cancelled; Discover
// keeps what was found.
var errStop = errors.New("walk stopped")

// spend charges one directory entry, and a file of size bytes when keep,
// to the budget; errStop (with a warning) once it is spent.
func (w *walker) spend(keep bool, size int64) error {
	if ctx := w.opts.Context; ctx != nil && ctx.Err() != nil {
		return w.stop(fmt.Sprintf("pallas-ls: warning: file discovery stopped: %v", ctx.Err()), ctx.Err())
	}
	b := w.opts.Budget
	w.entries++
	if keep {
		w.bytes += size
	}
	switch {
	case b.Entries > 0 && w.entries > b.Entries:
		return w.stop(fmt.Sprintf("pallas-ls: warning: stopped looking for Python files after %d directory entries; checking the %d found", b.Entries, len(w.files)), ErrBudget)
	case keep && b.Files > 0 && len(w.files) >= b.Files:
		return w.stop(fmt.Sprintf("pallas-ls: warning: more than %d Python files; checking the first %d found", b.Files, b.Files), ErrBudget)
	case keep && b.Bytes > 0 && w.bytes > b.Bytes:
		return w.stop(fmt.Sprintf("pallas-ls: warning: more than %s of Python; checking the %d files found before", safefs.Size(b.Bytes), len(w.files)), ErrBudget)
	}
	return nil
}

func (w *walker) stop(msg string, err error) error {
	w.warnings = append(w.warnings, &pathError{msg, err})
	return errStop
}

func (w *walker) warn(path, what string, err error) {
	msg := fmt.Sprintf("pallas-ls: warning: %s: %s: %s", Display(path, w.workDir), what, reason(err))
	w.warnings = append(w.warnings, &pathError{msg, err})
}

// pathError is a finished message that still unwraps to the filesystem
// error, so callers can test errors.Is(err, fs.ErrNotExist).
type pathError struct {
	msg string
	err error
}

func (e *pathError) Error() string { return e.msg }
func (e *pathError) Unwrap() error { return e.err }

func (w *walker) result() []File {
	out := make([]File, 0, len(w.files))
	for _, f := range w.files {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
