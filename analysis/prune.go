package analysis

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Pruning and entries. A finding about a kernel call needs a kernel, and
// code can only obtain Pallas from JAX by naming it ("pallas"), or from a
// workspace module that does, by importing it. So the analysis runs as
// entries (module top levels, tests) only the modules that import, directly
// or not, a module that mentions Pallas (or hold a configured entry
// point), and the modules that name shard_map (or smap) and a collective
// (prescan.go: mentionsSPMD), where PAL104 finds collectives on names no
// mesh binds with no kernel in sight; other modules run only when such a
// module imports them. Imports
// of `jax` itself are no edges: the analysis models JAX from its tables
// and never follows them into the workspace, even in JAX's own repository
// (program.go: isExternalQual). A file matters to the findings if it is
// such an entry module, is imported by one (directly or not), holds a
// suppression, or a per-file rule may report in it. Such a rule says which
// words its findings need (Analyzer.Triggers): PAL301 and PAL302 can only
// report in a file that spells an API with a deprecation or removal, so
// most code that merely uses JAX is never parsed. Every other file is read
// and byte-scanned (prescan.go), never parsed. The engine computes both
// sets from the same scan of every file, with or without pruning, so
// pruning never changes a result. The scan over-approximates the imports
// the analysis resolves, and the import graph takes its candidate files
// from the resolver's own list (program.go: moduleFiles): any ambiguity
// keeps a file.

// relevant returns, for each file, whether it must be analysed and
// whether it is an entry module; rules are the per-file rules' triggers.
func relevant(files []SourceFile, entryPoints []string, rules *fileRules) (keep, entry []bool) {
	keep, entry, _ = relevantCached(files, newLayout(paths(files)), entryPoints, rules, nil, nil)
	return keep, entry
}

// relevantCached is relevant with the pre-scans of unchanged files taken
// from (and stored into) cache, keyed by path; an editor re-checking after
// one keystroke then scans one file. The cache holds scans made with
// rules (the caller drops it when they change).
//
// memo, when not nil, holds the previous call's answer: when the files and
// their scans are the same (an edit that does not touch imports), the
// import graph is not rebuilt.
func relevantCached(files []SourceFile, lay *layout, entryPoints []string, rules *fileRules, cache map[string]cachedScan, memo *relevance) (keep, entry, script []bool) {
	n := len(files)
	scans := make([]scan, n)
	same := memo != nil && !memo.stale && len(memo.paths) == n && slices.Equal(memo.entryPoints, entryPoints)
	var todo []int
	for i, f := range files {
		if c, ok := cache[f.Path]; ok && sameBytes(c.src, f.Src) {
			scans[i] = c.scan
		} else {
			todo = append(todo, i)
		}
	}
	parallel(len(todo), func(k int) {
		i := todo[k]
		scans[i] = prescan(files[i].Src, rules)
	})
	if cache != nil {
		for _, i := range todo {
			cache[files[i].Path] = cachedScan{src: files[i].Src, scan: scans[i]}
		}
	}
	for i, f := range files {
		same = same && memo.paths[i] == f.Path && scans[i].equal(&memo.scans[i])
	}
	if same {
		return slices.Clone(memo.keep), slices.Clone(memo.entry), slices.Clone(memo.script)
	}
	if memo != nil {
		defer func() {
			ps := paths(files)
			if !slices.Equal(memo.paths, ps) || !slices.Equal(memo.keep, keep) || !slices.Equal(memo.entry, entry) || !slices.Equal(memo.script, script) {
				memo.gen++ // a scan can change (an import added) and the answer not
			}
			memo.paths, memo.scans, memo.entryPoints, memo.stale = ps, scans, slices.Clone(entryPoints), false
			memo.keep, memo.entry, memo.script = slices.Clone(keep), slices.Clone(entry), slices.Clone(script)
		}()
	}
	g := linkImports(files, scans, lay)
	for p := range cache {
		if _, ok := g.byPath[p]; !ok {
			delete(cache, p) // a file that is gone
		}
	}
	// Entries: the modules that reach a Pallas-mentioning module (or a
	// configured entry point) through imports.
	entry = make([]bool, n)
	var stack []int
	for i, sc := range scans {
		if sc.pallas || sc.spmd || sc.sharded && shardedEntry(files[i].Path, lay) || holdsEntryPoint(files[i].Path, lay, entryPoints) {
			entry[i] = true
			stack = append(stack, i)
		}
	}
	closure(stack, g.importers, entry)
	// Kept: the entries and everything they import, and the files the
	// per-file rules read.
	keep = slices.Clone(entry)
	stack = stack[:0]
	for i, e := range entry {
		if e {
			stack = append(stack, i)
		}
	}
	closure(stack, g.imports, keep)
	for i, sc := range scans {
		keep[i] = keep[i] || sc.seed
	}
	script = make([]bool, n)
	for i := range files {
		script[i] = len(g.importers[i]) == 0 && isScript(files[i].Path) && !holdsEntryPoint(files[i].Path, lay, entryPoints)
	}
	return keep, entry, script
}

// isScript reports whether a module that no file imports runs as a
// script (detached.go: runScript): anything but a test module, a
// package's __init__.py, a conftest.py (pytest loads it for the tests
// beside it) or a setup.py.
func isScript(path string) bool {
	switch filepath.Base(path) {
	case "__init__.py", "conftest.py", "setup.py":
		return false
	}
	return !isTestFile(path)
}

// importGraph is the pre-scan's import graph over files, by index.
type importGraph struct {
	imports   [][]int // i imports j
	importers [][]int // j is imported by i
	byPath    map[string]int
}

// linkImports links each file to every file its scanned imports may run,
// with the resolver's candidates (program.go: moduleFiles), more generously:
// every module importable under a name or a parent of it, not only the
// closest, and the packages above a relative import's directory.
func linkImports(files []SourceFile, scans []scan, lay *layout) *importGraph {
	n := len(files)
	g := &importGraph{imports: make([][]int, n), importers: make([][]int, n), byPath: make(map[string]int, n)}
	byName := map[string][]int{}
	for i, f := range files {
		g.byPath[f.Path] = i
		for _, name := range moduleNames(f.Path, lay) {
			byName[name] = append(byName[name], i)
		}
	}
	for i, sc := range scans {
		g.linkScan(i, files[i].Path, sc, byName, lay.root)
	}
	return g
}

func (g *importGraph) link(i, j int) {
	if i != j {
		g.imports[i] = append(g.imports[i], j)
		g.importers[j] = append(g.importers[j], i)
	}
}

// linkPaths links i to the files among paths.
func (g *importGraph) linkPaths(i int, paths ...string) {
	for _, c := range paths {
		if j, ok := g.byPath[c]; ok {
			g.link(i, j)
		}
	}
}

// linkScan links file i (at path) as its scan says.
func (g *importGraph) linkScan(i int, path string, sc scan, byName map[string][]int, root string) {
	dir := filepath.Dir(path)
	for _, imp := range sc.imports {
		if isExternalQual(imp) {
			continue // the analysis never follows it into the workspace
		}
		for p := imp; p != ""; p = parentName(p) {
			for _, j := range byName[p] {
				g.link(i, j)
			}
			m := moduleFiles(dir, p) // a module beside the importer (program.resolve)
			g.linkPaths(i, m[:]...)
		}
	}
	for _, r := range sc.rel {
		from := relativeDir(path, r.level)
		m := moduleFiles(from, r.mod)
		g.linkPaths(i, m[:]...)
		for _, name := range r.names {
			sub := moduleFiles(m[2], name) // may be a submodule
			g.linkPaths(i, sub[:]...)
		}
		// The packages above: importing a.b runs a/__init__.py.
		for d := from; len(d) > len(root); d = filepath.Dir(d) {
			g.linkPaths(i, filepath.Join(d, "__init__.py"))
		}
	}
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
func holdsEntryPoint(path string, lay *layout, entryPoints []string) bool {
	for _, q := range entryPoints {
		for _, name := range moduleNames(path, lay) {
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
	script      []bool
	gen         int // counts the changes of the answer (keep, entry)
	// stale: the scans were made with other triggers (Engine.switchScans),
	// so the answer is computed again, and gen moves only if it changed.
	stale bool
}

func paths(files []SourceFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// parallel calls f(0), ..., f(n-1) on GOMAXPROCS goroutines.
func parallel(n int, f func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for k := 0; k < n; k++ {
			f(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1)) - 1; k < n; k = int(next.Add(1)) - 1 {
				f(k)
			}
		}()
	}
	wg.Wait()
}

func parentName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return ""
}

// shardedEntry says whether a module that names a sharding and a
// collective but no shard_map (scan.sharded) runs as an entry: only
// library code can make a sharding evidence for PAL104, so not a test
// module, and not JAX's own source in JAX's repository (jax.*: the
// implementation of the APIs, lax.py and lax_numpy.py among them, which
// cost 7-9% more CPU on JAX's tree for no finding).
func shardedEntry(path string, lay *layout) bool {
	if isTestFile(path) {
		return false
	}
	for _, name := range moduleNames(path, lay) {
		if isExternalQual(name) {
			return false
		}
	}
	return true
}
