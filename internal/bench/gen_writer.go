package main

import (
	"os"
	"strconv"
	"strings"
)

// pyWriter accumulates one Python file and counts its lines.
type pyWriter struct {
	b     strings.Builder
	lines int
}

// add appends a block that ends with a newline.
func (w *pyWriter) add(block string) {
	w.b.WriteString(block)
	w.lines += strings.Count(block, "\n")
}

// blank adds the two blank lines PEP 8 puts between top-level definitions.
func (w *pyWriter) blank() { w.add("\n\n") }

func (w *pyWriter) String() string { return w.b.String() }

// lineCol finds the 0-based position of the first occurrence of needle
// at or after line from; the generator uses it to record edit targets.
func lineCol(src, needle string, from int) Pos {
	off := 0
	for i := 0; i < from; i++ {
		off += strings.IndexByte(src[off:], '\n') + 1
	}
	at := off + strings.Index(src[off:], needle)
	line := strings.Count(src[:at], "\n")
	return Pos{Line: line, Col: at - (strings.LastIndexByte(src[:at], '\n') + 1)}
}

// expand fills $name placeholders from key/value pairs. Python source
// never uses `$`, so templates stay readable.
func expand(tmpl string, kv ...string) string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return os.Expand(strings.TrimPrefix(tmpl, "\n"), func(k string) string {
		v, ok := m[k]
		if !ok {
			panic("template placeholder without value: " + k)
		}
		return v
	})
}

var (
	verbs = []string{"load", "parse", "merge", "split", "normalize", "collect", "filter", "encode",
		"decode", "render", "score", "rank", "clean", "resolve", "format", "build", "index", "group",
		"flatten", "batch", "scan", "fold", "route", "pack"}
	nouns = []string{"record", "token", "sample", "shard", "row", "column", "label", "feature",
		"path", "config", "metric", "event", "span", "entry", "vocab", "request", "header", "chunk",
		"frame", "example", "field", "key", "query", "result"}
	classNouns = []string{"Loader", "Reader", "Config", "Settings", "Tracker", "Registry", "Index",
		"Cache", "Buffer", "Writer", "Parser", "Counter", "Schema", "Plan"}
	kernelNames = []string{"all_reduce", "all_gather", "reduce_scatter", "ring_attention", "ragged_a2a",
		"psum_scatter", "collective_matmul", "moe_dispatch", "moe_combine", "pipeline_send",
		"halo_exchange", "ring_allgather_matmul"}
	areas = []string{"attention", "collectives", "moe", "norms", "matmul", "ragged", "pipeline",
		"embed", "conv", "scan", "sort", "quant"}
	plainGroups = []string{"data", "utils", "config", "text", "io", "metrics", "cli", "serving",
		"tracking", "schemas"}
)

// ident returns a fresh snake_case name.
func (g *gen) ident() string {
	g.seq++
	return pick(g, verbs) + "_" + pick(g, nouns) + "_" + strconv.Itoa(g.seq)
}

// className returns a fresh CamelCase name.
func (g *gen) className() string {
	g.seq++
	n := pick(g, nouns)
	return capitalize(n) + pick(g, classNouns) + strconv.Itoa(g.seq)
}

func itoa(n int) string { return strconv.Itoa(n) }

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
