package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// skipDirs are never entered unless named as an argument (spec.md §1 lists
// the first six; the rest are version-control and tool caches that ruff
// users expect to be skipped too). Other hidden directories are walked:
// .github/ or .ci/ scripts are real code.
var skipDirs = map[string]bool{
	".git": true, ".venv": true, "venv": true, "site-packages": true,
	"node_modules": true, "__pycache__": true,
	".hg": true, ".svn": true, ".tox": true, ".nox": true, ".eggs": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true,
	".pytype": true, ".direnv": true, ".ipynb_checkpoints": true,
	"__pypackages__": true,
}

// walker accumulates the result of one Discover call.
type walker struct {
	workDir  string
	opts     DiscoverOptions
	extra    patterns
	files    map[string]File
	visited  map[string]bool // real paths of directories already walked
	warnings []error
	entries  int   // directory entries looked at (the budget)
	bytes    int64 // size of the files kept
}

func newWalker(workDir string, opts DiscoverOptions) *walker {
	base := opts.ExcludeBase
	if base == "" {
		base = workDir
	} else if !filepath.IsAbs(base) {
		base = filepath.Join(workDir, base)
	}
	return &walker{
		workDir: workDir,
		opts:    opts,
		extra:   compile(opts.Exclude, components(filepath.Clean(base))),
		files:   map[string]File{},
		visited: map[string]bool{},
	}
}

// walkRoot walks a directory named as an argument, with the rules its
// ancestors put in force.
func (w *walker) walkRoot(root string) error {
	r, err := w.inherited(root)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		real = root
	}
	return w.walkDir(root, components(root), real, r.without(components(root)), true)
}

// inherited collects the rules that directories above root contribute:
// ignore files from the enclosing repository's root down (none outside a
// repository, so a stray ~/.gitignore cannot hide a project), and the
// excludes of the nearest settings file above.
func (w *walker) inherited(root string) (rules, error) {
	r := rules{extra: w.extra}
	for _, dir := range repoAncestors(root) {
		r.git = r.git.with(w.dirIgnores(dir, components(dir)))
	}
	cfg, err := w.inheritedConfig(root)
	r.cfg = cfg
	return r, err
}

// repoAncestors lists the directories strictly above root up to the root
// of the repository holding it, outermost first; nil outside a repository.
func repoAncestors(root string) []string {
	if exists(filepath.Join(root, ".git")) {
		return nil // root is a repository's root, maybe nested in another
	}
	var chain []string
	for dir := root; filepath.Dir(dir) != dir; {
		dir = filepath.Dir(dir)
		chain = append(chain, dir)
		if exists(filepath.Join(dir, ".git")) {
			slices.Reverse(chain)
			return chain
		}
	}
	return nil
}

// inheritedConfig finds the excludes of the nearest settings file strictly
// above root; root's own is read when the walk enters it.
func (w *walker) inheritedConfig(root string) (patterns, error) {
	if w.opts.ConfigExcludes == nil || filepath.Dir(root) == root {
		return nil, nil
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		globs, ok, err := w.opts.ConfigExcludes(dir)
		if err != nil {
			return nil, &pathError{"pallas-ls: " + err.Error(), err}
		}
		if ok {
			return compile(globs, components(dir)), nil
		}
		if filepath.Dir(dir) == dir {
			return nil, nil
		}
	}
}

// walkDir lists one directory and visits its entries in name order.
func (w *walker) walkDir(dir string, comps []string, real string, parent rules, explicit bool) error {
	if w.visited[real] {
		return nil // a symlink loop, or a tree already reached by another link
	}
	w.visited[real] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.warn(dir, "cannot read directory", err)
		if len(entries) == 0 {
			return nil // nothing to enter; its ignore files are unreadable too
		}
	}
	if !explicit && isVirtualenv(entries) {
		return nil
	}
	r, err := w.enter(dir, comps, parent)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := w.visit(dir, comps, real, e, r); err != nil {
			return err
		}
	}
	return nil
}

// enter adds the rules dir itself contributes.
func (w *walker) enter(dir string, comps []string, r rules) (rules, error) {
	r.git = r.git.with(w.dirIgnores(dir, comps))
	if w.opts.ConfigExcludes == nil {
		return r, nil
	}
	globs, ok, err := w.opts.ConfigExcludes(dir)
	if err != nil {
		return r, &pathError{"pallas-ls: " + err.Error(), err}
	}
	if ok {
		r.cfg = compile(globs, comps)
	}
	return r, nil
}

// visit handles one directory entry: a .py file is kept, a directory is
// walked, anything else is passed over. Symlinks count as their targets;
// a dangling link is skipped silently, as it names nothing to check.
func (w *walker) visit(dir string, comps []string, real string, e fs.DirEntry, r rules) error {
	name, path := e.Name(), filepath.Join(dir, e.Name())
	mode := e.Type()
	link := mode&fs.ModeSymlink != 0
	var info fs.FileInfo
	if link {
		st, err := os.Stat(path)
		if err != nil {
			return w.spend(false, 0)
		}
		mode, info = st.Mode().Type(), st
	}
	isDir := mode.IsDir()
	switch {
	case isDir && skipDirs[name], !isDir && (!mode.IsRegular() || !strings.HasSuffix(name, ".py")):
		return w.spend(false, 0)
	}
	sub := append(slices.Clip(comps), name)
	if r.ignored(sub, isDir) {
		return w.spend(false, 0)
	}
	if !isDir {
		return w.keepFile(path, e, info)
	}
	if err := w.spend(false, 0); err != nil {
		return err
	}
	subReal := filepath.Join(real, name)
	if link {
		var err error
		if subReal, err = filepath.EvalSymlinks(path); err != nil {
			return nil
		}
	}
	return w.walkDir(path, sub, subReal, r, false)
}

// keepFile adds a Python file the walk found, within the budget. Its size
// is only looked up when the budget counts bytes.
func (w *walker) keepFile(path string, e fs.DirEntry, info fs.FileInfo) error {
	var size int64
	if w.opts.Budget.Bytes > 0 {
		if info == nil {
			info, _ = e.Info()
		}
		if info != nil && info.Size() <= MaxFileSize {
			size = info.Size() // bigger files are skipped, not read
		}
	}
	if err := w.spend(true, size); err != nil {
		return err
	}
	w.add(path)
	return nil
}

// isVirtualenv spots a virtual environment under any name by the
// pyvenv.cfg that `python -m venv`, virtualenv and uv all write.
func isVirtualenv(entries []fs.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == "pyvenv.cfg" {
			return true
		}
	}
	return false
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
