package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// VersionChoice is the JAX version a run predicts, and why, in words the
// user can act on (shown by `check -v` and in hovers, spec.md §5).
type VersionChoice struct {
	Version lowering.Version
	Reason  string
	// Pin is what the project's dependency files say of the platform,
	// whichever source chose the version.
	Pin PlatformPin
}

// maxIncludeDepth bounds "-r other.txt" chains; real projects nest one or
// two levels, and the bound also stops include cycles.
const maxIncludeDepth = 5

// DetectJAXVersion applies spec.md §5 for a file or directory: the flag
// when non-empty, then jax-version in the nearest settings file, then the
// project's own jax pin, then lowering.Latest. A malformed version in the
// flag or a settings file is an error (the user asked for it explicitly);
// an unreadable pin is skipped.
func DetectJAXVersion(dir, flag string) (VersionChoice, error) {
	if strings.TrimSpace(flag) != "" {
		return flagVersion(flag)
	}
	c, err := LoadFor(dir)
	if err != nil {
		return VersionChoice{}, err
	}
	return c.DetectJAXVersion(dir, flag)
}

// DetectJAXVersion is the package function with c standing for the nearest
// settings file, for front ends that already hold one (--config FILE, or an
// editor's settings). A nil c has no jax-version. Files it could not read
// are skipped silently; Resolver.JAXVersion reports them.
func (c *Config) DetectJAXVersion(dir, flag string) (VersionChoice, error) {
	return c.detect(dir, flag, func(error) {})
}

// detect is DetectJAXVersion with warn told about every file present that
// could not be read.
func (c *Config) detect(dir, flag string, warn func(error)) (VersionChoice, error) {
	vc, err := c.detectVersion(dir, flag, warn)
	if err == nil {
		vc.Pin = platformPin(startDir(dir), warn)
	}
	return vc, err
}

func (c *Config) detectVersion(dir, flag string, warn func(error)) (VersionChoice, error) {
	if strings.TrimSpace(flag) != "" {
		return flagVersion(flag)
	}
	if c != nil && c.JAXVersion != "" {
		return configVersion(c)
	}
	if choice, ok := projectPin(startDir(dir), warn); ok {
		return choice, nil
	}
	return VersionChoice{Version: lowering.Latest, Reason: fmt.Sprintf("default: newest known (%s)", lowering.Latest)}, nil
}

func flagVersion(flag string) (VersionChoice, error) {
	flag = strings.TrimSpace(flag)
	v, err := lowering.ParseVersion(flag)
	if err != nil {
		return VersionChoice{}, fmt.Errorf("--jax-version: %w", err)
	}
	return VersionChoice{Version: v, Reason: "--jax-version " + flag}, nil
}

func configVersion(c *Config) (VersionChoice, error) {
	v, err := lowering.ParseVersion(c.JAXVersion)
	if err != nil {
		return VersionChoice{}, fmt.Errorf("%sjax-version: %w", c.where(), err)
	}
	where := c.Path
	if c.Path == "" {
		where = "settings"
	} else if filepath.Base(c.Path) == PyProject {
		where += " [tool." + toolTable + "]"
	}
	return VersionChoice{Version: v, Reason: "jax-version in " + where}, nil
}

// projectPin looks in the nearest pyproject.toml and the requirements
// files beside it. Without a pyproject it walks up looking for
// requirements files, stopping at the repository root so that a stray file
// above the project cannot decide.
func projectPin(start string, warn func(error)) (VersionChoice, bool) {
	if py := nearest(start, PyProject); py != "" {
		if choice, ok := pyprojectPin(py, warn); ok {
			return choice, true
		}
		return requirementsPin(filepath.Dir(py), warn)
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		if choice, ok := requirementsPin(dir, warn); ok {
			return choice, true
		}
		if exists(filepath.Join(dir, ".git")) || filepath.Dir(dir) == dir {
			return VersionChoice{}, false
		}
	}
}

// pyprojectPin searches the dependency tables of a pyproject.toml, main
// dependencies first, then optional groups and Poetry tables. A file that
// is not valid TOML is the project's business and is skipped; one that
// cannot be read is also worth a warning.
func pyprojectPin(path string, warn func(error)) (VersionChoice, bool) {
	data, err := readFound(path)
	if err != nil {
		warn(err)
		return VersionChoice{}, false
	}
	doc, err := decodeCached(path, data, true)
	if err != nil {
		return VersionChoice{}, false
	}
	project, _ := doc["project"].(map[string]any)
	if c, ok := listPin(path, "[project] dependencies", project["dependencies"]); ok {
		return c, true
	}
	if c, ok := groupsPin(path, "[project] optional-dependencies", project["optional-dependencies"]); ok {
		return c, true
	}
	if c, ok := groupsPin(path, "[dependency-groups]", doc["dependency-groups"]); ok {
		return c, true
	}
	return poetryPin(path, doc)
}

// listPin finds a jax requirement in an array of PEP 508 strings.
func listPin(path, table string, v any) (VersionChoice, bool) {
	list, _ := v.([]any)
	for _, item := range list {
		req, _ := item.(string)
		if ver, ok := requirementVersion(req); ok {
			return pinChoice(ver, strings.TrimSpace(req), path+" "+table), true
		}
	}
	return VersionChoice{}, false
}

// groupsPin searches a table of named requirement lists in name order, so
// the answer does not depend on map iteration.
func groupsPin(path, table string, v any) (VersionChoice, bool) {
	groups, _ := v.(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		if c, ok := listPin(path, table+" "+name, groups[name]); ok {
			return c, true
		}
	}
	return VersionChoice{}, false
}

// poetryPin reads `jax = ...` from [tool.poetry.dependencies], then from
// Poetry's dependency groups.
func poetryPin(path string, doc map[string]any) (VersionChoice, bool) {
	tool, _ := doc["tool"].(map[string]any)
	poetry, _ := tool["poetry"].(map[string]any)
	tables := []string{"dependencies"}
	groups, _ := poetry["group"].(map[string]any)
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		tables = append(tables, "group."+g+".dependencies")
	}
	for _, t := range tables {
		deps := lookup(poetry, strings.Split(t, "."))
		for _, name := range slices.Sorted(maps.Keys(deps)) {
			if !isJAX(name) {
				continue
			}
			if ver, spec, ok := poetryValue(deps[name]); ok {
				text := fmt.Sprintf("%s = %q", name, spec)
				return pinChoice(ver, text, path+" [tool.poetry."+t+"]"), true
			}
		}
	}
	return VersionChoice{}, false
}

func lookup(t map[string]any, keys []string) map[string]any {
	for _, k := range keys {
		t, _ = t[k].(map[string]any)
	}
	return t
}

// requirementsPin searches requirements*.txt in dir, requirements.txt
// first, following -r/-c includes as far as they stay in the project.
func requirementsPin(dir string, warn func(error)) (VersionChoice, bool) {
	files, _ := filepath.Glob(filepath.Join(dir, "requirements*.txt"))
	sort.Slice(files, func(i, j int) bool {
		bi, bj := filepath.Base(files[i]) == "requirements.txt", filepath.Base(files[j]) == "requirements.txt"
		if bi != bj {
			return bi
		}
		return files[i] < files[j]
	})
	rs := &reqSearch{root: safefs.ProjectRoot(dir), seen: map[string]bool{}, warn: warn}
	for _, f := range files {
		if c, ok := rs.file(f, "", 0); ok {
			return c, true
		}
	}
	return VersionChoice{}, false
}

// reqSearch follows one directory's requirements files and their
// includes. root is the project they may not leave: "-r /etc/shadow",
// "-r ../../..", or a requirements file linked to one outside, is refused
// with a warning, whatever it would have held.
type reqSearch struct {
	root string
	seen map[string]bool
	warn func(error)
}

// file searches one requirements file; from is the file whose -r or -c
// line named it ("" for the top-level files), for messages.
func (rs *reqSearch) file(path, from string, depth int) (VersionChoice, bool) {
	if rs.seen[path] || depth > maxIncludeDepth {
		return VersionChoice{}, false
	}
	rs.seen[path] = true
	data, err := readIn(rs.root, path)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		return VersionChoice{}, false
	case from != "":
		rs.warn(fmt.Errorf("%s: include %s not read: %s", from, path, reason(errors.Unwrap(err))))
		return VersionChoice{}, false
	default:
		rs.warn(err)
		return VersionChoice{}, false
	}
	for _, line := range requirementLines(string(data)) {
		if inc, ok := includeTarget(line); ok {
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(path), inc)
			}
			if c, ok := rs.file(filepath.Clean(inc), path, depth+1); ok {
				return c, true
			}
		} else if ver, ok := requirementVersion(line); ok {
			return pinChoice(ver, line, path), true
		}
	}
	return VersionChoice{}, false
}

func pinChoice(v lowering.Version, text, where string) VersionChoice {
	return VersionChoice{Version: v, Reason: fmt.Sprintf("jax pin `%s` in %s", text, where)}
}

// nearest returns the first file called name in start or its ancestors.
func nearest(start, name string) string {
	for dir := start; ; dir = filepath.Dir(dir) {
		if p := filepath.Join(dir, name); present(p) {
			return p
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
