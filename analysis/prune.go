package analysis

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
)

// Pruning: a file can only change a finding if it mentions JAX (kernels,
// shard_map, removed APIs all need a jax import), carries a suppression
// comment, or is connected through imports to a file that does (callers
// are entry points; callees compute static flags). Files in import
// components with none of these are read and scanned, never parsed. The
// scan is a byte scan of import lines, so it over-approximates: any
// ambiguity keeps a file.

// scan is what the pre-scan learns of one file without parsing it.
type scan struct {
	seed    bool       // mentions jax or carries a suppression
	imports []string   // absolute dotted names imported (and their parents)
	rel     []relative // relative imports
}

type relative struct {
	level int
	mod   string
	names []string
}

func prescan(src []byte) scan {
	var s scan
	s.seed = bytes.Contains(src, []byte("jax")) || bytes.Contains(src, []byte("pallas-ls:")) ||
		bytes.Contains(src, []byte("PAL"))
	for _, line := range bytes.Split(src, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		switch {
		case strings.HasPrefix(t, "import "):
			for _, part := range strings.Split(t[len("import "):], ",") {
				if f := strings.Fields(part); len(f) > 0 {
					s.imports = append(s.imports, strings.TrimSuffix(f[0], "\\"))
				}
			}
		case strings.HasPrefix(t, "from "):
			s.from(t)
		}
	}
	return s
}

func (s *scan) from(t string) {
	f := strings.Fields(t)
	if len(f) < 2 {
		return
	}
	mod := f[1]
	var names []string
	if i := strings.Index(t, " import "); i >= 0 {
		for _, n := range strings.Split(strings.Trim(t[i+len(" import "):], "()\\ "), ",") {
			if nf := strings.Fields(n); len(nf) > 0 {
				names = append(names, strings.Trim(nf[0], "()"))
			}
		}
	}
	if strings.HasPrefix(mod, ".") {
		level := len(mod) - len(strings.TrimLeft(mod, "."))
		s.rel = append(s.rel, relative{level: level, mod: mod[level:], names: names})
		return
	}
	s.imports = append(s.imports, mod)
	for _, n := range names {
		s.imports = append(s.imports, mod+"."+n) // may be a submodule
	}
}

// relevant returns, for each file, whether it must be analysed.
func relevant(files []SourceFile) []bool { return relevantCached(files, nil, nil) }

// relevantCached is relevant with the pre-scans of unchanged files taken
// from (and stored into) cache, keyed by path; an editor re-checking after
// one keystroke then scans one file.
//
// memo, when not nil, holds the previous call's answer: when the files and
// their scans are the same (an edit that does not touch imports), the
// import graph is not rebuilt.
func relevantCached(files []SourceFile, cache map[string]cachedScan, memo *relevance) []bool {
	n := len(files)
	scans := make([]scan, n)
	if memo != nil {
		same := len(memo.paths) == n
		for i, f := range files {
			if c, ok := cache[f.Path]; ok && sameBytes(c.src, f.Src) {
				scans[i] = c.scan
			} else {
				scans[i] = prescan(f.Src)
				cache[f.Path] = cachedScan{src: f.Src, scan: scans[i]}
			}
			same = same && memo.paths[i] == f.Path && scans[i].equal(&memo.scans[i])
		}
		if same {
			return append([]bool(nil), memo.keep...)
		}
		defer func() { memo.paths, memo.scans = paths(files), scans }()
	}
	byName := map[string][]int{}
	byPath := map[string]int{}
	root := commonDirPaths(files)
	for i, f := range files {
		if c, ok := cache[f.Path]; ok && sameBytes(c.src, f.Src) {
			scans[i] = c.scan
		} else {
			scans[i] = prescan(f.Src)
			if cache != nil {
				cache[f.Path] = cachedScan{src: f.Src, scan: scans[i]}
			}
		}
		byPath[f.Path] = i
		for _, name := range moduleNames(f.Path, root) {
			byName[name] = append(byName[name], i)
		}
	}
	for p := range cache {
		if _, ok := byPath[p]; !ok {
			delete(cache, p) // a file that is gone
		}
	}
	adj := make([][]int, n)
	link := func(a, b int) {
		if a != b {
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	for i, sc := range scans {
		for _, imp := range sc.imports {
			for p := imp; p != ""; p = parentName(p) {
				for _, j := range byName[p] {
					link(i, j)
				}
			}
		}
		for _, r := range sc.rel {
			dir := filepath.Dir(files[i].Path)
			for k := 1; k < r.level; k++ {
				dir = filepath.Dir(dir)
			}
			base := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(r.mod, ".", "/")))
			cands := []string{base + ".py", filepath.Join(base, "__init__.py")}
			for _, name := range r.names {
				cands = append(cands, filepath.Join(base, name+".py"), filepath.Join(base, name, "__init__.py"))
			}
			for _, c := range cands {
				if j, ok := byPath[c]; ok {
					link(i, j)
				}
			}
		}
	}
	keep := make([]bool, n)
	var stack []int
	for i, sc := range scans {
		if sc.seed {
			keep[i] = true
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range adj[i] {
			if !keep[j] {
				keep[j] = true
				stack = append(stack, j)
			}
		}
	}
	if memo != nil {
		memo.keep = append([]bool(nil), keep...)
	}
	return keep
}

// relevance is relevantCached's previous answer.
type relevance struct {
	paths []string
	scans []scan
	keep  []bool
}

func paths(files []SourceFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

func (s *scan) equal(t *scan) bool {
	if s.seed != t.seed || !slices.Equal(s.imports, t.imports) || len(s.rel) != len(t.rel) {
		return false
	}
	for i, r := range s.rel {
		q := t.rel[i]
		if r.level != q.level || r.mod != q.mod || !slices.Equal(r.names, q.names) {
			return false
		}
	}
	return true
}

func parentName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return ""
}

// moduleNames lists every dotted name a file can be imported as,
// relative to each ancestor directory up to root (as NewProgram does),
// including its package directories' names for __init__.py.
func moduleNames(path, root string) []string {
	rel := strings.TrimSuffix(path, ".py")
	if filepath.Base(path) == "__init__.py" {
		rel = filepath.Dir(path)
	}
	var out []string
	for dir := filepath.Dir(rel); ; dir = filepath.Dir(dir) {
		name := strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(rel, dir), string(filepath.Separator)), string(filepath.Separator), ".")
		if name != "" {
			out = append(out, name)
		}
		if dir == root || len(dir) < len(root) || filepath.Dir(dir) == dir {
			break
		}
	}
	return out
}

func commonDirPaths(files []SourceFile) string {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	return commonParent(paths)
}

// cachedScan is a pre-scan with the bytes it was made from.
type cachedScan struct {
	src  []byte
	scan scan
}
