package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// patterns is an ordered list of gitignore patterns; as in git, the last
// pattern that matches a path decides, so a later "!keep.py" re-includes
// what an earlier "*.py" excluded. Each pattern carries its domain (the
// directory of the file it came from), so one list can mix files from many
// directories. Paths are absolute, split into components.
type patterns []gitignore.Pattern

// decide returns the verdict of the last matching pattern, or NoMatch.
func (ps patterns) decide(path []string, isDir bool) gitignore.MatchResult {
	for i := len(ps) - 1; i >= 0; i-- {
		if m := ps[i].Match(path, isDir); m != gitignore.NoMatch {
			return m
		}
	}
	return gitignore.NoMatch
}

// with returns ps followed by more, never writing into ps's backing array:
// sibling directories share their parent's list.
func (ps patterns) with(more patterns) patterns {
	if len(more) == 0 {
		return ps
	}
	return append(slices.Clip(ps), more...)
}

// without drops the patterns that exclude path. Used for a directory named
// on the command line: the user asked for it, so rules from above that
// would hide it (and, through it, everything inside) do not apply.
func (ps patterns) without(path []string) patterns {
	var out patterns
	for _, p := range ps {
		if p.Match(path, true) != gitignore.Exclude {
			out = append(out, p)
		}
	}
	return out
}

// rules are the three independent sources of exclusion in force in one
// directory. They are kept apart because they scope differently: ignore
// files accumulate down the tree, a nearer settings file replaces the
// excludes of one further up, and extra excludes hold everywhere.
type rules struct {
	git   patterns // .git/info/exclude and .gitignore files, outermost first
	cfg   patterns // exclude globs of the nearest settings file
	extra patterns // DiscoverOptions.Exclude
}

func (r rules) ignored(path []string, isDir bool) bool {
	return r.git.decide(path, isDir) == gitignore.Exclude ||
		r.cfg.decide(path, isDir) == gitignore.Exclude ||
		r.extra.decide(path, isDir) == gitignore.Exclude
}

func (r rules) without(path []string) rules {
	return rules{r.git.without(path), r.cfg.without(path), r.extra.without(path)}
}

// compile parses gitignore lines rooted at the directory domain.
func compile(lines []string, domain []string) patterns {
	var out patterns
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// readIgnoreFile compiles one ignore file; a missing file is no patterns.
// It is read through safefs like every file a cloned tree controls: a
// regular file of at most safefs.MaxConfigSize whose real path stays in
// the project (a FIFO, /dev/zero or a link to ~/.ssh is a warning).
func readIgnoreFile(path string, domain []string) (patterns, error) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	data, err := safefs.ReadFileIn(safefs.ProjectRoot(filepath.Dir(path)), path, safefs.MaxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // a dangling link, or deleted since
	}
	if err != nil {
		return nil, err
	}
	return compile(strings.Split(string(data), "\n"), domain), nil
}

// dirIgnores reads the ignore files dir holds, lowest precedence first:
// .git/info/exclude when dir is a repository root, then .gitignore.
func (w *walker) dirIgnores(dir string, domain []string) patterns {
	var out patterns
	files := []string{filepath.Join(dir, ".gitignore")}
	if st, err := os.Stat(filepath.Join(dir, ".git")); err == nil && st.IsDir() {
		files = slices.Insert(files, 0, filepath.Join(dir, ".git", "info", "exclude"))
	}
	for _, f := range files {
		ps, err := readIgnoreFile(f, domain)
		if err != nil {
			w.warn(f, "cannot read ignore file", err)
		}
		out = append(out, ps...)
	}
	return out
}

// components splits an absolute path into the form gitignore patterns
// match against: "/a/b" -> ["a", "b"], "/" -> [].
func components(path string) []string {
	p := strings.Trim(filepath.ToSlash(path), "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
