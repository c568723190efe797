package config

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/internal/safefs"
)

// PlatformPin is what a project's dependency files say of the backend its
// kernels target (issue 18, item 10): a TPU requirement (`jax[tpu]`,
// `libtpu`) or a GPU one (`jax[cuda12]`, `jax-cuda12-plugin`,
// `jax-triton`, a `+cuda` jaxlib). GPU wins when both appear: a project
// that installs for GPU too may run any unmarked kernel there, so the
// analysis keeps quiet about them. Empty when the files name neither.
type PlatformPin struct {
	Platform string // "tpu", "gpu" or ""
	Reason   string // "`jax[tpu]==0.6.2` in pyproject.toml [project] dependencies"
}

// platformOf classifies one PEP 508 requirement: "tpu", "gpu" or "".
func platformOf(req string) string {
	req, _, _ = strings.Cut(req, ";")
	m := reqHead.FindStringSubmatch(req)
	if m == nil {
		return ""
	}
	name := nameSep.ReplaceAllString(strings.ToLower(m[1]), "-")
	extras := strings.ToLower(strings.Trim(m[2], "[]"))
	switch {
	case name == "libtpu" || name == "libtpu-nightly":
		return "tpu"
	case name == "jax-triton" || strings.HasPrefix(name, "jax-cuda") || strings.HasPrefix(name, "jax-rocm"):
		return "gpu"
	case name == "jaxlib" && (strings.Contains(m[3], "+cuda") || strings.Contains(m[3], "+rocm")):
		return "gpu"
	case name != "jax":
		return ""
	}
	tpu := false
	for _, e := range strings.Split(extras, ",") {
		e = strings.TrimSpace(e)
		switch {
		case strings.HasPrefix(e, "cuda"), strings.HasPrefix(e, "rocm"), e == "gpu":
			return "gpu"
		case e == "tpu":
			tpu = true
		}
	}
	if tpu {
		return "tpu"
	}
	return ""
}

// platformPin reads the same files as the version pin (the nearest
// pyproject.toml and the requirements files beside it, or, without one,
// requirements files up to the repository root) for platform markers.
func platformPin(start string, warn func(error)) PlatformPin {
	var pp pinScan
	if py := nearest(start, PyProject); py != "" {
		pp.pyproject(py, warn)
		pp.requirements(filepath.Dir(py))
		return pp.result()
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		pp.requirements(dir)
		if pp.tpu != "" || pp.gpu != "" || exists(filepath.Join(dir, ".git")) || filepath.Dir(dir) == dir {
			return pp.result()
		}
	}
}

// pinScan collects the first TPU and the first GPU marker met.
type pinScan struct{ tpu, gpu string }

func (s *pinScan) note(req, where string) {
	switch platformOf(req) {
	case "tpu":
		if s.tpu == "" {
			s.tpu = "`" + strings.TrimSpace(req) + "` in " + where
		}
	case "gpu":
		if s.gpu == "" {
			s.gpu = "`" + strings.TrimSpace(req) + "` in " + where
		}
	}
}

func (s *pinScan) result() PlatformPin {
	switch {
	case s.gpu != "":
		return PlatformPin{"gpu", s.gpu}
	case s.tpu != "":
		return PlatformPin{"tpu", s.tpu}
	}
	return PlatformPin{}
}

func (s *pinScan) list(v any, where string) {
	list, _ := v.([]any)
	for _, item := range list {
		if req, ok := item.(string); ok {
			s.note(req, where)
		}
	}
}

func (s *pinScan) groups(v any, where string) {
	groups, _ := v.(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		s.list(groups[name], where+" "+name)
	}
}

func (s *pinScan) pyproject(path string, warn func(error)) {
	data, err := readFound(path)
	if err != nil {
		warn(err)
		return
	}
	doc, err := decodeCached(path, data, true)
	if err != nil {
		return
	}
	project, _ := doc["project"].(map[string]any)
	s.list(project["dependencies"], path+" [project] dependencies")
	s.groups(project["optional-dependencies"], path+" [project] optional-dependencies")
	s.groups(doc["dependency-groups"], path+" [dependency-groups]")
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
			req := name
			if d, ok := deps[name].(map[string]any); ok {
				if ex, ok := d["extras"].([]any); ok {
					var es []string
					for _, e := range ex {
						if e, ok := e.(string); ok {
							es = append(es, e)
						}
					}
					req += "[" + strings.Join(es, ",") + "]"
				}
			}
			s.note(req, path+" [tool.poetry."+t+"]")
		}
	}
}

// requirements reads requirements*.txt in dir and what they include, as
// far as the includes stay in the project (as requirementsPin does).
func (s *pinScan) requirements(dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "requirements*.txt"))
	slices.Sort(files)
	root := safefs.ProjectRoot(dir)
	seen := map[string]bool{}
	var walk func(path string, depth int)
	walk = func(path string, depth int) {
		if seen[path] || depth > maxIncludeDepth {
			return
		}
		seen[path] = true
		data, err := readIn(root, path)
		if err != nil {
			return // requirementsPin already warned of what it could not read
		}
		for _, line := range requirementLines(string(data)) {
			if inc, ok := includeTarget(line); ok {
				if !filepath.IsAbs(inc) {
					inc = filepath.Join(filepath.Dir(path), inc)
				}
				walk(filepath.Clean(inc), depth+1)
			} else {
				s.note(line, path)
			}
		}
	}
	for _, f := range files {
		walk(f, 0)
	}
}
