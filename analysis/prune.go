package analysis

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
)

// Pruning and entries. A finding about a kernel call needs a kernel, and
// code can only obtain Pallas from JAX by naming it ("pallas"), or from a
// workspace module that does, by importing it. So the analysis runs as
// entries (module top levels, tests) only the modules that import, directly
// or not, a module that mentions Pallas (or hold a configured entry
// point); other modules run only when such a module imports them. A file
// matters to the findings if it is such an entry module, is imported by
// one (directly or not), or mentions JAX or a suppression (for the
// per-file rules); every other file is read and byte-scanned, never
// parsed. The engine computes both sets from the same scan of every file,
// with or without pruning, so pruning never changes a result. The scan
// reads import statements (continuation lines included) from the bytes,
// so it over-approximates the imports the analysis resolves: any
// ambiguity keeps a file.

// scan is what the pre-scan learns of one file without parsing it.
type scan struct {
	seed    bool       // mentions jax or carries a suppression: the per-file rules need it
	pallas  bool       // imports or refers to pallas: may define or call kernels
	imports []string   // absolute dotted names imported (and their parents)
	rel     []relative // relative imports
}

type relative struct {
	level int
	mod   string
	names []string
}

// maxJoin bounds the continuation lines joined to one import statement.
const maxJoin = 200

func prescan(src []byte) scan {
	var s scan
	s.seed = bytes.Contains(src, []byte("jax")) || bytes.Contains(src, []byte("pallas-ls:")) ||
		bytes.Contains(src, []byte("PAL"))
	// Code obtains Pallas from JAX by importing a module path that names
	// it, or by an attribute (`jax.experimental.pallas`); a comment or a
	// string that mentions it does not count, nor a longer attribute name
	// (jax's own `ctx.pallas_lowering_cache`).
	s.pallas = hasAttr(src, ".pallas")
	lines := bytes.Split(src, []byte("\n"))
	for k := 0; k < len(lines); k++ {
		if l := bytes.TrimLeft(lines[k], " \t\f\v\r"); !bytes.HasPrefix(l, []byte("import")) && !bytes.HasPrefix(l, []byte("from")) {
			continue // most lines: no string made
		}
		t := importLine(lines[k])
		if !strings.HasPrefix(t, "import ") && !strings.HasPrefix(t, "from ") {
			continue
		}
		// `from m import (a,\n b)` and backslash continuations: one statement.
		for j := 0; j < maxJoin && k+1 < len(lines) &&
			(strings.HasSuffix(t, "\\") || strings.Count(t, "(") > strings.Count(t, ")")); j++ {
			k++
			t = strings.TrimSuffix(t, "\\") + " " + importLine(lines[k])
		}
		s.pallas = s.pallas || strings.Contains(t, "pallas")
		if strings.HasPrefix(t, "import ") {
			for _, part := range strings.Split(t[len("import "):], ",") {
				if f := strings.Fields(part); len(f) > 0 {
					s.imports = append(s.imports, strings.TrimSuffix(f[0], "\\"))
				}
			}
		} else {
			s.from(t)
		}
	}
	return s
}

// hasAttr reports whether src contains attr (".name") not followed by an
// identifier byte: `x.pallas` and `x.pallas.tpu`, not `x.pallas_call`.
// Non-ASCII bytes count as identifier bytes.
func hasAttr(src []byte, attr string) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(attr))
		if j < 0 {
			return false
		}
		end := i + j + len(attr)
		if end == len(src) || !isIdentByte(src[end]) {
			return true
		}
		i = end
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// importLine is a line trimmed, without its comment.
func importLine(line []byte) string {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(string(line))
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

// relevant returns, for each file, whether it must be analysed and
// whether it is an entry module.
func relevant(files []SourceFile, entryPoints []string) (keep, entry []bool) {
	return relevantCached(files, entryPoints, nil, nil)
}

// relevantCached is relevant with the pre-scans of unchanged files taken
// from (and stored into) cache, keyed by path; an editor re-checking after
// one keystroke then scans one file.
//
// memo, when not nil, holds the previous call's answer: when the files and
// their scans are the same (an edit that does not touch imports), the
// import graph is not rebuilt.
func relevantCached(files []SourceFile, entryPoints []string, cache map[string]cachedScan, memo *relevance) (keep, entry []bool) {
	n := len(files)
	scans := make([]scan, n)
	same := memo != nil && len(memo.paths) == n && slices.Equal(memo.entryPoints, entryPoints)
	for i, f := range files {
		if c, ok := cache[f.Path]; ok && sameBytes(c.src, f.Src) {
			scans[i] = c.scan
		} else {
			scans[i] = prescan(f.Src)
			if cache != nil {
				cache[f.Path] = cachedScan{src: f.Src, scan: scans[i]}
			}
		}
		same = same && memo.paths[i] == f.Path && scans[i].equal(&memo.scans[i])
	}
	if same {
		return slices.Clone(memo.keep), slices.Clone(memo.entry)
	}
	if memo != nil {
		defer func() {
			ps := paths(files)
			if !slices.Equal(memo.paths, ps) || !slices.Equal(memo.keep, keep) || !slices.Equal(memo.entry, entry) {
				memo.gen++ // a scan can change (an import added) and the answer not
			}
			memo.paths, memo.scans, memo.entryPoints = ps, scans, slices.Clone(entryPoints)
			memo.keep, memo.entry = slices.Clone(keep), slices.Clone(entry)
		}()
	}
	byName := map[string][]int{}
	byPath := make(map[string]int, n)
	root := commonDirPaths(files)
	for i, f := range files {
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
	imports := make([][]int, n)   // i imports j
	importers := make([][]int, n) // j is imported by i
	link := func(i, j int) {
		if i != j {
			imports[i] = append(imports[i], j)
			importers[j] = append(importers[j], i)
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
			// The packages above: importing a.b runs a/__init__.py.
			for d := dir; len(d) > len(root); d = filepath.Dir(d) {
				cands = append(cands, filepath.Join(d, "__init__.py"))
			}
			for _, c := range cands {
				if j, ok := byPath[c]; ok {
					link(i, j)
				}
			}
		}
	}
	// Entries: the modules that reach a Pallas-mentioning module (or a
	// configured entry point) through imports.
	entry = make([]bool, n)
	var stack []int
	for i, sc := range scans {
		if sc.pallas || holdsEntryPoint(files[i].Path, root, entryPoints) {
			entry[i] = true
			stack = append(stack, i)
		}
	}
	closure(stack, importers, entry)
	// Kept: the entries and everything they import, and the files the
	// per-file rules read.
	keep = slices.Clone(entry)
	stack = stack[:0]
	for i, e := range entry {
		if e {
			stack = append(stack, i)
		}
	}
	closure(stack, imports, keep)
	for i, sc := range scans {
		keep[i] = keep[i] || sc.seed
	}
	return keep, entry
}

// closure marks everything reachable from stack along edges.
func closure(stack []int, edges [][]int, mark []bool) {
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range edges[i] {
			if !mark[j] {
				mark[j] = true
				stack = append(stack, j)
			}
		}
	}
}

// holdsEntryPoint reports whether a configured entry point ("pkg.mod.func")
// may live in the file at path.
func holdsEntryPoint(path, root string, entryPoints []string) bool {
	for _, q := range entryPoints {
		for _, name := range moduleNames(path, root) {
			if strings.HasPrefix(q, name+".") {
				return true
			}
		}
	}
	return false
}

// relevance is relevantCached's previous answer.
type relevance struct {
	paths       []string
	scans       []scan
	entryPoints []string
	keep, entry []bool
	gen         int // counts the changes of the answer (keep, entry)
}

func paths(files []SourceFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

func (s *scan) equal(t *scan) bool {
	if s.seed != t.seed || s.pallas != t.pallas || !slices.Equal(s.imports, t.imports) || len(s.rel) != len(t.rel) {
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
