package main

import (
	"math/rand/v2"
	"sort"
	"strings"
)

// Config says what corpus Generate builds.
type Config struct {
	Lines    int    // target number of Python lines
	Seed     uint64 // same seed and size, same bytes
	HotLines int    // size of the editor-test kernel file; 0 means 3000
}

// File is one generated file; Path is relative and slash-separated.
type File struct {
	Path string
	Src  []byte
}

// Pos is a 0-based line and column (bytes; the corpus is ASCII, so also
// UTF-16 units) in a file.
type Pos struct{ Line, Col int }

// Hot describes the large kernel file the editor test opens and edits.
type Hot struct {
	Path  string
	Lines int
	// Flag is the `True` of `remote=True` in a call that a jit without
	// shard_map reaches: flipping it to False switches the kernel's
	// communication off, so the file's findings change.
	Flag Pos
	// Hover are positions inside kernel calls (on `pallas_call`).
	Hover []Pos
}

// Corpus is a generated project.
type Corpus struct {
	Files    []File
	Lines    int // Python lines
	JAXLines int // lines in files that import jax
	Bytes    int
	Hot      Hot
}

// Python lists the .py files.
func (c *Corpus) Python() []File {
	var out []File
	for _, f := range c.Files {
		if strings.HasSuffix(f.Path, ".py") {
			out = append(out, f)
		}
	}
	return out
}

// jaxShare is the fraction of lines in JAX code; the rest is plain Python
// a checker must read but that never imports jax.
const jaxShare = 0.3

// Generate builds a synthetic Pallas project of about cfg.Lines lines.
func Generate(cfg Config) *Corpus {
	if cfg.HotLines <= 0 {
		cfg.HotLines = 3000
	}
	g := newGen(cfg)
	jaxBudget := int(float64(cfg.Lines) * jaxShare)
	g.hotFile(min(cfg.HotLines, cfg.Lines*3/10))
	g.families(max(jaxBudget-g.jaxLines, cfg.Lines/10))
	g.plain(cfg.Lines - g.lines)
	g.inits()
	g.addFile("pyproject.toml", pyproject, false)
	return g.corpus()
}

const pyproject = `[project]
name = "acme-models"
version = "0.1.0"
requires-python = ">=3.10"
dependencies = ["numpy"]

[tool.pytest.ini_options]
testpaths = ["tests"]
`

// gen is the generator's state: the files so far and what later files
// may import from them.
type gen struct {
	r        *rand.Rand
	files    []File
	lines    int
	jaxLines int
	bytes    int
	seq      int
	hot      Hot
	exports  map[string][]string // package dir -> "module:name" re-exported by its __init__
	strFns   []importable        // plain str -> str functions later modules may call
}

// importable is a function defined in a generated module.
type importable struct{ module, name string }

func newGen(cfg Config) *gen {
	return &gen{r: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)), exports: map[string][]string{}}
}

// addFile records a file; jax marks it as JAX code for the share.
func (g *gen) addFile(path, src string, jax bool) {
	n := strings.Count(src, "\n")
	g.files = append(g.files, File{Path: path, Src: []byte(src)})
	g.bytes += len(src)
	if !strings.HasSuffix(path, ".py") {
		return
	}
	g.lines += n
	if jax {
		g.jaxLines += n
	}
}

// export asks the package's __init__.py to re-export name from module.
func (g *gen) export(module, name string) {
	pkg := module[:strings.LastIndex(module, ".")]
	g.exports[pkg] = append(g.exports[pkg], module+":"+name)
}

func (g *gen) corpus() *Corpus {
	sort.Slice(g.files, func(i, j int) bool { return g.files[i].Path < g.files[j].Path })
	return &Corpus{Files: g.files, Lines: g.lines, JAXLines: g.jaxLines, Bytes: g.bytes, Hot: g.hot}
}

// between returns a number in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// chance is true with probability p.
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// pick returns a random element.
func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

// fileSize draws a plain module's target size: mostly a few hundred
// lines, some up to 1500, a few up to 3000.
func (g *gen) fileSize() int {
	switch x := g.r.Float64(); {
	case x < 0.70:
		return g.between(100, 500)
	case x < 0.95:
		return g.between(500, 1500)
	default:
		return g.between(1500, 3000)
	}
}
