package config

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
)

// FileIn returns the settings file that dir itself holds, or "" if none:
// .pallas-ls.toml when present, else pyproject.toml when it has a
// [tool.pallas-ls] table. A malformed pyproject.toml is only an error when
// it mentions pallas-ls, so an unrelated broken file never blocks a check.
func FileIn(dir string) (string, error) {
	dot := filepath.Join(dir, DotFile)
	if isFile(dot) {
		return dot, nil
	}
	py := filepath.Join(dir, PyProject)
	if !isFile(py) {
		return "", nil
	}
	data, err := os.ReadFile(py)
	if err != nil {
		return "", err
	}
	if !bytes.Contains(data, []byte(toolTable)) {
		return "", nil
	}
	doc, err := parseTOML(py, data)
	if err != nil {
		return "", err
	}
	if _, ok, _ := toolSection(doc); !ok {
		return "", nil
	}
	return py, nil
}

// Find returns the nearest settings file for a file or directory, walking
// up to the filesystem root; "" when there is none. A path that does not
// exist (an unsaved editor buffer) is looked up from its parent.
func Find(path string) (string, error) {
	for dir := startDir(path); ; dir = filepath.Dir(dir) {
		f, err := FileIn(dir)
		if f != "" || err != nil {
			return f, err
		}
		if filepath.Dir(dir) == dir {
			return "", nil
		}
	}
}

// LoadFor is Find followed by Load. With no settings file it returns an
// empty Config, never nil, so callers need no special case.
func LoadFor(path string) (*Config, error) {
	f, err := Find(path)
	if err != nil || f == "" {
		return &Config{}, err
	}
	return Load(f)
}

// startDir is the absolute directory a lookup for path begins in.
func startDir(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return abs
	}
	return filepath.Dir(abs)
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// Resolver answers "which settings apply here" for many files (spec.md §6:
// the nearest config file to each checked file wins), reading each
// directory and each file once. It is safe for concurrent use.
type Resolver struct {
	mu      sync.Mutex
	nearest map[string]string // dir -> nearest settings file ("" none)
	loaded  map[string]*Config
}

// NewResolver returns an empty Resolver; make a new one to see file changes.
func NewResolver() *Resolver {
	return &Resolver{nearest: map[string]string{}, loaded: map[string]*Config{}}
}

// For returns the Config that applies to a file or directory (empty, not
// nil, when none does).
func (r *Resolver) For(path string) (*Config, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := r.find(startDir(path))
	if err != nil || f == "" {
		return &Config{}, err
	}
	return r.load(f)
}

// ExcludesIn reports the exclude globs of the settings file held by dir
// itself; ok is false when dir holds none. Its signature fits
// workspace.DiscoverOptions.ConfigExcludes.
func (r *Resolver) ExcludesIn(dir string) (globs []string, ok bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := FileIn(dir)
	if err != nil || f == "" {
		return nil, false, err
	}
	c, err := r.load(f)
	if err != nil {
		return nil, false, err
	}
	return c.Exclude, true, nil
}

// find memoises Find per directory; errors are not cached.
func (r *Resolver) find(dir string) (string, error) {
	if f, ok := r.nearest[dir]; ok {
		return f, nil
	}
	f, err := FileIn(dir)
	if err != nil {
		return "", err
	}
	if f == "" && filepath.Dir(dir) != dir {
		if f, err = r.find(filepath.Dir(dir)); err != nil {
			return "", err
		}
	}
	r.nearest[dir] = f
	return f, nil
}

func (r *Resolver) load(path string) (*Config, error) {
	if c, ok := r.loaded[path]; ok {
		return c, nil
	}
	c, err := Load(path)
	if err != nil {
		return nil, err
	}
	r.loaded[path] = c
	return c, nil
}
