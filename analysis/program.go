package analysis

import (
	"path/filepath"
	"sort"
	"strings"
)

// Module is one workspace module: a file, or a directory acting as a
// namespace package (Sum nil).
type Module struct {
	Name  string // its longest importable dotted name (relative to the files' common root)
	Path  string // file path, or directory for a namespace package
	Sum   *Summary
	IsPkg bool // __init__.py or namespace directory
	env   *Env
	state uint8 // 0 fresh, 1 executing, 2 done
}

// Program links the summaries of all checked files into a module index.
type Program struct {
	Files   []*Summary
	Modules []*Module
	byName  map[string][]*Module
	byPath  map[string]*Module
}

// NewProgram indexes summaries by every dotted name they can be imported
// as: relative to each ancestor directory up to the files' common root.
// That covers __init__.py packages, namespace packages and src/ layouts
// without configuration; ambiguity is settled per importing file by
// closeness (see resolve).
func NewProgram(files []*Summary) *Program { return newProgramAt(files, commonDir(files)) }

// newProgramAt is NewProgram with the root given: the root of every file
// of the workspace, even when only some are analysed (pruning), so that
// module names do not depend on which files were kept.
func newProgramAt(files []*Summary, root string) *Program {
	p := &Program{Files: files, byName: map[string][]*Module{}, byPath: map[string]*Module{}}
	for _, s := range files {
		m := &Module{Path: s.Path, Sum: s}
		base := filepath.Base(s.Path)
		if base == "__init__.py" {
			m.IsPkg = true
		}
		p.add(m, root)
	}
	sort.Slice(p.Modules, func(i, j int) bool { return p.Modules[i].Path < p.Modules[j].Path })
	return p
}

func (p *Program) add(m *Module, root string) {
	p.Modules = append(p.Modules, m)
	p.byPath[m.Path] = m
	for _, name := range moduleNames(m.Path, root) {
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

func (p *Program) ensurePackage(name, dir string) {
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
	m := &Module{Name: name, Path: dir, IsPkg: true}
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
func (p *Program) lookup(name, fromDir string) *Module {
	cands := p.byName[name]
	var best *Module
	bestLen := -1
	for _, m := range cands {
		n := sharedPrefix(m.Path, fromDir)
		if n > bestLen || n == bestLen && len(m.Path) < len(best.Path) {
			best, bestLen = m, n
		}
	}
	return best
}

// relative resolves `from ..a import` against the importing file's path.
func (p *Program) relative(from *Summary, level int, mod string) (*Module, string) {
	dir := filepath.Dir(from.Path)
	for i := 1; i < level; i++ {
		dir = filepath.Dir(dir)
	}
	target := dir
	if mod != "" {
		target = filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(mod, ".", "/")))
	}
	if m := p.byPath[target+".py"]; m != nil {
		return m, ""
	}
	if m := p.byPath[filepath.Join(target, "__init__.py")]; m != nil {
		return m, ""
	}
	if m := p.byPath[target]; m != nil {
		return m, ""
	}
	return nil, target
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonDir(files []*Summary) string {
	paths := make([]string, len(files))
	for i, s := range files {
		paths[i] = s.Path
	}
	return commonParent(paths)
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
