package analysis

import (
	"bytes"
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
// point); other modules run only when such a module imports them. Imports
// of `jax` itself are no edges: the analysis models JAX from its tables
// and never follows them into the workspace, even in JAX's own repository
// (attr.go). A file matters to the findings if it is such an entry
// module, is imported by one (directly or not), holds a suppression, or a
// per-file rule may report in it. Such a rule says which words its
// findings need (Analyzer.Triggers): PAL301 and PAL302 can only report in
// a file that spells an API with a deprecation or removal, so most code
// that merely uses JAX is never parsed. Every other file is read and
// byte-scanned, never parsed. The engine computes both sets from the same
// scan of every file, with or without pruning, so pruning never changes a
// result. The scan reads import statements (continuation lines included)
// from the bytes, so it over-approximates the imports the analysis
// resolves: any ambiguity keeps a file.

// scan is what the pre-scan learns of one file without parsing it.
type scan struct {
	seed    bool       // a per-file rule may report in it, or it carries a suppression
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

func prescan(src []byte, rules *fileRules) scan {
	var s scan
	s.seed = rules.mayReport(src) || mayHoldSuppression(src)
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
		s.pallas = s.pallas || hasWord([]byte(t), "pallas") // not jax's `lax.pallas_lowerings`
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

// mayHoldSuppression reports whether src may hold a comment that
// suppress.go reads: "pallas-ls:", or "noqa" in any case, then ":" and, on
// the same line, "pal" in any case (`# noqa: PAL101`).
func mayHoldSuppression(src []byte) bool {
	if bytes.Contains(src, []byte("pallas-ls:")) {
		return true
	}
	for i := 0; ; {
		j := indexFold(src[i:], "noqa")
		if j < 0 {
			return false
		}
		i += j + len("noqa")
		rest := src[i:]
		if k := bytes.IndexByte(rest, '\n'); k >= 0 {
			rest = rest[:k]
		}
		if k := bytes.IndexByte(rest, ':'); k >= 0 && indexFold(rest[k:], "pal") >= 0 {
			return true
		}
	}
}

// indexFold is the index of the first instance of the lower-case ASCII
// word w in src, in any case, or -1.
func indexFold(src []byte, w string) int {
	first := string([]byte{w[0], w[0] - 'a' + 'A'})
	for i := 0; i+len(w) <= len(src); i++ {
		j := bytes.IndexAny(src[i:], first)
		if j < 0 {
			return -1
		}
		i += j
		if i+len(w) <= len(src) && bytes.EqualFold(src[i:i+len(w)], []byte(w)) {
			return i
		}
	}
	return -1
}

// fileRules is what the registered per-file rules need of a file's text.
type fileRules struct {
	all      bool           // a rule without triggers: every file
	triggers [][]wordCount  // each a conjunction
	index    map[string]int // every word of every trigger, numbered
	first    [256]bool      // the first bytes of those words
}

// wordCount is a word (by number) and how many times a trigger needs it.
type wordCount struct{ word, n int }

func registeredFileRules() *fileRules {
	fr := &fileRules{index: map[string]int{}}
	for _, a := range Analyzers() {
		if a.RunFile == nil {
			continue
		}
		if a.Triggers == nil {
			fr.all = true
		}
		for _, t := range a.Triggers {
			var conj []wordCount
			for _, w := range t {
				if w == "" {
					continue // no identifier is empty
				}
				k, ok := fr.index[w]
				if !ok {
					k = len(fr.index)
					fr.index[w] = k
					fr.first[w[0]] = true
				}
				if i := slices.IndexFunc(conj, func(c wordCount) bool { return c.word == k }); i >= 0 {
					conj[i].n++
				} else {
					conj = append(conj, wordCount{k, 1})
				}
			}
			fr.triggers = append(fr.triggers, conj)
		}
	}
	return fr
}

// mayReport reports whether some per-file rule may report in src: one
// pass counts the trigger words among src's identifiers.
func (fr *fileRules) mayReport(src []byte) bool {
	if fr.all {
		return true
	}
	if len(fr.triggers) == 0 {
		return false
	}
	counts := make([]int, len(fr.index))
	eachWord(src, func(w []byte) {
		if fr.first[w[0]] {
			if k, ok := fr.index[string(w)]; ok {
				counts[k]++
			}
		}
	})
next:
	for _, t := range fr.triggers {
		for _, c := range t {
			if counts[c.word] < c.n {
				continue next
			}
		}
		return true
	}
	return false
}

// eachWord calls f with every maximal run of identifier bytes in src (a
// name, a keyword, a number) outside whole-line comments, which licence
// headers fill with words ("ANY"). A line that starts with `#` is a
// comment or the inside of a string; it is only code inside an
// f-string's braces, so a line with `{` is read.
func eachWord(src []byte, f func([]byte)) {
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		i = end + 1
		if t := bytes.TrimLeft(line, " \t\f\v\r"); len(t) > 0 && t[0] == '#' && bytes.IndexByte(t, '{') < 0 {
			continue
		}
		for k := 0; k < len(line); {
			if !isIdentByte(line[k]) {
				k++
				continue
			}
			s := k
			for k < len(line) && isIdentByte(line[k]) {
				k++
			}
			f(line[s:k])
		}
	}
}

// hasWord reports whether src has w as a word (eachWord).
func hasWord(src []byte, w string) bool {
	found := false
	eachWord(src, func(x []byte) { found = found || string(x) == w })
	return found
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
	return relevantCached(files, newLayout(paths(files)), entryPoints, nil, nil)
}

// relevantCached is relevant with the pre-scans of unchanged files taken
// from (and stored into) cache, keyed by path; an editor re-checking after
// one keystroke then scans one file.
//
// memo, when not nil, holds the previous call's answer: when the files and
// their scans are the same (an edit that does not touch imports), the
// import graph is not rebuilt.
func relevantCached(files []SourceFile, lay *layout, entryPoints []string, cache map[string]cachedScan, memo *relevance) (keep, entry []bool) {
	n := len(files)
	scans := make([]scan, n)
	rules := registeredFileRules()
	same := memo != nil && len(memo.paths) == n && slices.Equal(memo.entryPoints, entryPoints)
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
	root := lay.root
	for i, f := range files {
		byPath[f.Path] = i
		for _, name := range moduleNames(f.Path, lay) {
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
		dir := filepath.Dir(files[i].Path)
		for _, imp := range sc.imports {
			if isExternalQual(imp) {
				continue // the analysis never follows it into the workspace (attr.go)
			}
			for p := imp; p != ""; p = parentName(p) {
				for _, j := range byName[p] {
					link(i, j)
				}
				// A module beside the importer (Program.resolve).
				base := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(p, ".", "/")))
				for _, c := range []string{base + ".py", filepath.Join(base, "__init__.py")} {
					if j, ok := byPath[c]; ok {
						link(i, j)
					}
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
		if sc.pallas || holdsEntryPoint(files[i].Path, lay, entryPoints) {
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
// relative to each ancestor directory up to the root that may be on
// sys.path (layout.importRoot; as NewProgram does), including its package
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

// cachedScan is a pre-scan with the bytes it was made from.
type cachedScan struct {
	src  []byte
	scan scan
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
