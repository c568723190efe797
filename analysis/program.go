package analysis

import (
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// module is one workspace module: a file, or a directory acting as a
// namespace package (Sum nil).
type module struct {
	Name  string // its longest importable dotted name (relative to the files' common root)
	Path  string // file path, or directory for a namespace package
	Sum   *ir.Summary
	IsPkg bool // __init__.py or namespace directory
	// id numbers the program's modules (namespace packages too) from 0,
	// for the tables of a run over them (interp.mods).
	id int
}

// program links the summaries of all checked files into a module index.
type program struct {
	Files   []*ir.Summary
	Modules []*module
	byName  map[string][]*module
	byPath  map[string]*module
	lay     *layout
	nmods   int // modules numbered so far (module.id)
}

// layout is what module names depend on: the files' common root and the
// package directories (those that hold an __init__.py). It comes from
// every file of the workspace, not only the analysed ones, so that
// pruning never changes a name.
type layout struct {
	root string
	pkgs map[string]bool
	key  string // the root and the package directories, to compare layouts
}

func newLayout(paths []string) *layout {
	l := &layout{root: commonParent(paths), pkgs: map[string]bool{}}
	for _, p := range paths {
		if filepath.Base(p) == "__init__.py" {
			l.pkgs[filepath.Dir(p)] = true
		}
	}
	// Files that all lie in one package (a repository whose only Python
	// is its package directory, or a check of that directory) are
	// imported by the package's name, from the directory above it, which
	// is what is on sys.path: `from tokamax._src import x` inside
	// tokamax/.
	for l.pkgs[l.root] && filepath.Dir(l.root) != l.root {
		l.root = filepath.Dir(l.root)
	}
	l.key = l.root + "\x00" + strings.Join(slices.Sorted(maps.Keys(l.pkgs)), "\x00")
	return l
}

// importRoot reports whether dir may be on sys.path, so that absolute
// imports name modules relative to it: the workspace root, or a directory
// that is not a package (`src/`, `tests/`, a folder of scripts). Inside a
// package a module is importable only by its full name: `import random`
// in a test is the standard library's, not `jax/_src/pallas/random.py`,
// and `import vllm` is the installed package, not `tests/layers/vllm/`.
func (l *layout) importRoot(dir string) bool { return dir == l.root || !l.pkgs[dir] }

// newProgram indexes summaries by every dotted name they can be imported
// as: relative to each ancestor directory up to the files' common root
// that is not a package (layout.importRoot). That covers __init__.py
// packages, namespace packages and src/ layouts without configuration;
// ambiguity is settled per importing file by closeness (see lookup).
func newProgram(files []*ir.Summary) *program {
	paths := make([]string, len(files))
	for i, s := range files {
		paths[i] = s.Path
	}
	return newProgramAt(files, newLayout(paths))
}

// newProgramAt is newProgram with the layout of every file of the
// workspace, even when only some are analysed (pruning).
func newProgramAt(files []*ir.Summary, lay *layout) *program {
	p := &program{Files: files, byName: map[string][]*module{}, byPath: map[string]*module{}, lay: lay}
	for _, s := range files {
		m := &module{Path: s.Path, Sum: s}
		base := filepath.Base(s.Path)
		if base == "__init__.py" {
			m.IsPkg = true
		}
		p.add(m)
	}
	sort.Slice(p.Modules, func(i, j int) bool { return p.Modules[i].Path < p.Modules[j].Path })
	return p
}

func (p *program) add(m *module) {
	m.id, p.nmods = p.nmods, p.nmods+1
	p.Modules = append(p.Modules, m)
	p.byPath[m.Path] = m
	for _, name := range moduleNames(m.Path, p.lay) {
		if validDotted(name) {
			p.byName[name] = append(p.byName[name], m)
			m.Name = name
		}
	}
	// Parent directories of a module are (namespace) packages too.
	if m.Name != "" {
		if i := strings.LastIndexByte(m.Name, '.'); i > 0 {
			p.ensurePackage(m.Name[:i], filepath.Dir(strings.TrimSuffix(m.Path, ".py")))
		}
	}
	if m.Name == "" {
		m.Name = strings.TrimSuffix(filepath.Base(m.Path), ".py")
	}
}

func (p *program) ensurePackage(name, dir string) {
	if m := p.lookup(name, dir); m != nil {
		return
	}
	for _, n := range p.byName[name] {
		if n.IsPkg {
			return
		}
	}
	if filepath.Base(dir) == "__init__" {
		return
	}
	m := &module{Name: name, Path: dir, IsPkg: true, id: p.nmods}
	p.nmods++
	p.byName[name] = append(p.byName[name], m)
	p.byPath[dir] = m
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		p.ensurePackage(name[:i], filepath.Dir(dir))
	}
}

func validDotted(name string) bool {
	for _, part := range strings.Split(name, ".") {
		if part == "" || strings.ContainsAny(part, " -") {
			return false
		}
	}
	return true
}

// lookup finds the module importable as name, preferring the candidate
// closest to the importing file (longest shared directory prefix).
func (p *program) lookup(name, fromDir string) *module {
	cands := p.byName[name]
	var best *module
	bestLen := -1
	for _, m := range cands {
		n := sharedPrefix(m.Path, fromDir)
		if n > bestLen || n == bestLen && len(m.Path) < len(best.Path) {
			best, bestLen = m, n
		}
	}
	return best
}

// resolve finds the module that an absolute import of name in the file
// from runs. A module beside from comes first: Python puts a script's own
// directory first on sys.path, and pytest a test's outside packages (in a
// package, a bare sibling import works only for a script, but the
// sibling is still the likeliest meaning). Then the closest module
// importable as name from an import root (layout.importRoot).
func (p *program) resolve(name, from string) *module {
	if m := p.beside(name, filepath.Dir(from)); m != nil {
		return m
	}
	return p.lookup(name, from)
}

// importTarget is the workspace module an absolute `import name` in file
// from runs, or nil: JAX itself (isExternalQual) and what the workspace
// does not hold are external.
func (p *program) importTarget(name string, from *ir.Summary) *module {
	if isExternalQual(name) || from == nil {
		return nil
	}
	return p.resolve(name, from.Path)
}

// fromTarget is the module a `from M import ...` in file from takes its
// names from, or nil; external says M is outside the workspace (so are the
// names), not a relative import that names no module of it.
func (p *program) fromTarget(imp *ir.Import, from *ir.Summary) (m *module, external bool) {
	if imp.Level > 0 {
		return p.relative(from, imp.Level, imp.Module), false
	}
	m = p.importTarget(imp.Module, from)
	return m, m == nil
}

// submodule is the module importable as m's submodule name, or nil: what
// `from m import name` or `m.name` reaches when m does not bind name.
func (p *program) submodule(m *module, name string) *module {
	return p.lookup(ir.JoinQual(m.Name, name), m.Path)
}

// beside finds the module importable as name from directory dir itself.
func (p *program) beside(name, dir string) *module { return p.first(moduleFiles(dir, name)) }

// relative resolves `from ..a import` against the importing file's path.
func (p *program) relative(from *ir.Summary, level int, mod string) *module {
	return p.first(moduleFiles(relativeDir(from.Path, level), mod))
}

// first is the module at the first of paths that holds one.
func (p *program) first(paths [3]string) *module {
	for _, c := range paths {
		if m := p.byPath[c]; m != nil {
			return m
		}
	}
	return nil
}

// moduleFiles lists where the module dotted (relative to directory dir;
// "" for dir itself) may live, in the order Python tries them: a module
// file, a package's __init__.py, a namespace package's directory. The
// resolver and the pre-scan (prune.go) both take their candidates from
// here, so that the pre-scan's import graph holds every edge the resolver
// links (TestPrescanHoldsResolvedImports).
func moduleFiles(dir, dotted string) [3]string {
	base := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(dotted, ".", "/")))
	return [3]string{base + ".py", filepath.Join(base, "__init__.py"), base}
}

// relativeDir is the directory a relative import of level dots in the
// file at path starts from: the file's own for one dot, one up per further
// dot.
func relativeDir(path string, level int) string {
	dir := filepath.Dir(path)
	for i := 1; i < level; i++ {
		dir = filepath.Dir(dir)
	}
	return dir
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// commonParent is the deepest directory holding every path.
func commonParent(paths []string) string {
	if len(paths) == 0 {
		return string(filepath.Separator)
	}
	root := filepath.Dir(paths[0])
	for _, p := range paths[1:] {
		for !strings.HasPrefix(p, root+string(filepath.Separator)) && filepath.Dir(root) != root {
			root = filepath.Dir(root)
		}
	}
	return root
}

// moduleNames lists every dotted name a file can be imported as,
// relative to each ancestor directory up to the root that may be on
// sys.path (layout.importRoot; as newProgram does), including its package
// directories' names for __init__.py.
func moduleNames(path string, lay *layout) []string {
	root := lay.root
	rel := strings.TrimSuffix(path, ".py")
	if filepath.Base(path) == "__init__.py" {
		rel = filepath.Dir(path)
	}
	var out []string
	for dir := filepath.Dir(rel); ; dir = filepath.Dir(dir) {
		name := strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(rel, dir), string(filepath.Separator)), string(filepath.Separator), ".")
		if name != "" && lay.importRoot(dir) {
			out = append(out, name)
		}
		if dir == root || len(dir) < len(root) || filepath.Dir(dir) == dir {
			break
		}
	}
	return out
}

// isExternalQual reports names the analysis never resolves into the
// workspace: JAX itself (even when the workspace is JAX's own repository,
// its API is modelled by the lowering tables, not by its source).
func isExternalQual(q string) bool {
	return q == "jax" || q == "jaxlib" || hasPrefix(q, "jax.") || hasPrefix(q, "jaxlib.")
}

// isTestFile reports whether path names a test module (pytest's names).
func isTestFile(path string) bool {
	b := filepath.Base(path)
	return strings.HasPrefix(b, "test_") && strings.HasSuffix(b, ".py") || strings.HasSuffix(b, "_test.py") || b == "conftest.py"
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
