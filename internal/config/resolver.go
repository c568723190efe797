package config

import (
	"path/filepath"
	"sync"
)

// Resolver answers "which settings apply here" for many files (spec.md §6:
// the nearest config file to each checked file wins), reading each
// directory and each file once. It is safe for concurrent use.
//
// A settings file that cannot be used (invalid TOML, a wrong value, a
// FIFO) does not stop anything: the files it governs get the defaults,
// and the problem is recorded once, for the front end to report (see
// Problems). So one broken test fixture deep in a tree never hides the
// findings of the rest.
type Resolver struct {
	mu       sync.Mutex
	nearest  map[string]string // dir -> nearest settings file ("" none)
	loaded   map[string]*Config
	failed   map[string]error
	problems []Problem
	recorded map[string]bool
}

// Problem is something the resolver could not use. An error (Warning
// false) is a settings file whose files were checked with the defaults
// instead; a warning is a file it could do without, such as a requirements
// include that leads out of the project.
type Problem struct {
	Err     error
	Warning bool
}

// NewResolver returns an empty Resolver; make a new one to see file changes.
func NewResolver() *Resolver {
	return &Resolver{nearest: map[string]string{}, loaded: map[string]*Config{},
		failed: map[string]error{}, recorded: map[string]bool{}}
}

// For returns the Config that applies to a file or directory (empty, not
// nil, when none does). When the nearest settings file cannot be used, it
// returns the defaults and that file's error, which is also recorded.
func (r *Resolver) For(path string) (*Config, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.find(startDir(path))
	if f == "" {
		return &Config{}, nil
	}
	c, err := r.load(f)
	if err != nil {
		return &Config{}, err
	}
	return c, nil
}

// ExcludesIn reports the exclude globs of the settings file held by dir
// itself; ok is false when dir holds none. A broken file there has no
// excludes (the defaults) and is recorded, never returned, so that the
// walk goes on. Its signature fits workspace.DiscoverOptions.ConfigExcludes.
func (r *Resolver) ExcludesIn(dir string) (globs []string, ok bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, warn := fileIn(dir)
	r.warn(warn)
	if f == "" {
		return nil, false, nil
	}
	c, err := r.load(f)
	if err != nil {
		return nil, true, nil
	}
	return c.Exclude, true, nil
}

// JAXVersion is c.DetectJAXVersion, with what it could not read (a
// requirements include out of the project, a pyproject.toml that is a
// FIFO) recorded as warnings.
func (r *Resolver) JAXVersion(c *Config, dir, flag string) (VersionChoice, error) {
	return c.detect(dir, flag, func(err error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.warn(err)
	})
}

// Problems returns the problems recorded since the last call, each file's
// once, in the order met.
func (r *Resolver) Problems() []Problem {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.problems
	r.problems = nil
	return out
}

func (r *Resolver) warn(err error) {
	if err != nil {
		r.record(Problem{Err: err, Warning: true})
	}
}

func (r *Resolver) record(p Problem) {
	if msg := p.Err.Error(); !r.recorded[msg] {
		r.recorded[msg] = true
		r.problems = append(r.problems, p)
	}
}

// find memoises the nearest settings file per directory.
func (r *Resolver) find(dir string) string {
	if f, ok := r.nearest[dir]; ok {
		return f
	}
	f, warn := fileIn(dir)
	r.warn(warn)
	if f == "" && filepath.Dir(dir) != dir {
		f = r.find(filepath.Dir(dir))
	}
	r.nearest[dir] = f
	return f
}

// load reads and validates a settings file once; a failure is recorded
// once and remembered.
func (r *Resolver) load(path string) (*Config, error) {
	if c, ok := r.loaded[path]; ok {
		return c, nil
	}
	if err, ok := r.failed[path]; ok {
		return nil, err
	}
	c, err := loadFound(path)
	if err == nil {
		err = c.validate()
	}
	if err != nil {
		r.failed[path] = err
		r.record(Problem{Err: err})
		return nil, err
	}
	r.loaded[path] = c
	return c, nil
}
