package main

import (
	"fmt"
	"sort"
	"strings"
)

// hotPath is the large kernel module the editor test opens and edits.
const hotPath = "acme/hot/fused_kernels.py"

// hotFile writes a kernel module of about size lines: many ring and local
// kernels and their launchers, then a debug entry point that runs the
// first ring kernel under a bare jax.jit (a PAL101 finding in this file
// whose communication the literal Hot.Flag switches). A launch script
// adds a second finding here, and a wrapper module calls the launchers
// correctly.
func (g *gen) hotFile(size int) {
	w := &pyWriter{}
	w.add(expand(kernelHeader, "what", "fused collectives used across the model", "rows", "32"))
	var rings, locals []string
	var hover []int // line numbers of launchers to hover
	for s := 0; len(rings) < 2 || w.lines < size-20; s++ {
		k := fmt.Sprintf("h%d", s)
		ring := fmt.Sprintf("%s_h%d", pick(g, kernelNames), s)
		w.blank()
		if s < 2 {
			hover = append(hover, w.lines)
		}
		w.add(g.annotate(g.ringKernel(k, ring, s%3 == 2), true))
		rings = append(rings, ring)
		local := fmt.Sprintf("local_%s_h%d", pick(g, verbs), s)
		w.blank()
		if s == 0 {
			hover = append(hover, w.lines)
		}
		w.add(g.annotate(expand(localTmpl, "k", k, "local", local, "ref", "reference_h"+itoa(s), "scale", g.scale()), true))
		locals = append(locals, local)
		for j := g.between(1, 3); j > 0; j-- {
			w.blank()
			w.add(g.annotate(g.jaxHelper(true), true))
		}
	}
	tail := w.lines
	w.blank()
	w.add(expand(hotTailTmpl, "ring", rings[0]))
	src := w.String()
	g.hot = Hot{Path: hotPath, Lines: w.lines}
	flag := lineCol(src, "remote=True)", tail)
	flag.Col += len("remote=")
	g.hot.Flag = flag
	for _, l := range hover {
		p := lineCol(src, "pl.pallas_call(", l)
		g.hot.Hover = append(g.hot.Hover, Pos{p.Line, p.Col + len("pl.")})
	}
	g.addFile(hotPath, src, true)
	g.hotCallers(rings, locals)
}

const hotTailTmpl = `
def debug_$ring(x):
    return $ring(x, axis_name="x", remote=True)


if __name__ == "__main__":
    x = jnp.ones((64, 128), jnp.float32)
    print(jax.jit(debug_$ring)(x).shape)
`

// hotCallers writes the correct shard_map wrappers of the hot kernels and
// a debug script whose top-level jit of the second ring is a bug.
func (g *gen) hotCallers(rings, locals []string) {
	w := &pyWriter{}
	w.add("\"\"\"Sharded wrappers of the fused kernels.\"\"\"\n\nimport functools\n\nimport jax\nfrom jax.sharding import PartitionSpec as P\n\n")
	w.add("from acme.hot import fused_kernels as fk\n")
	for i, r := range rings {
		w.blank()
		w.add(fmt.Sprintf("def sharded_%s(x, mesh):\n    return jax.shard_map(fk.%s, mesh=mesh, in_specs=P(\"x\"), out_specs=P(\"x\"))(x)\n", r, r))
		if i < len(locals) {
			w.blank()
			w.add(fmt.Sprintf("def run_%s(x, y):\n    return jax.jit(fk.%s)(x, y)\n", locals[i], locals[i]))
		}
	}
	g.addFile("acme/hot/sharded.py", w.String(), true)
	g.export("acme.hot.sharded", "sharded_"+rings[0])
	g.addFile("scripts/debug_hot.py", fmt.Sprintf(`"""Quick single-host check of a fused kernel."""

import jax
import jax.numpy as jnp

from acme.hot.fused_kernels import %s

x = jnp.ones((64, 128), jnp.float32)
print(jax.jit(%s)(x).shape)
`, rings[1], rings[1]), true)
}

// inits writes an __init__.py for every package directory, re-exporting
// the names other modules import through the package.
func (g *gen) inits() {
	dirs := map[string]bool{}
	for _, f := range g.files {
		if !strings.HasPrefix(f.Path, "acme/") {
			continue
		}
		for d := f.Path[:strings.LastIndex(f.Path, "/")]; d != ""; d = parentDir(d) {
			dirs[d] = true
		}
	}
	var sorted []string
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, d := range sorted {
		g.addFile(d+"/__init__.py", g.initSource(strings.ReplaceAll(d, "/", ".")), g.isJAXPackage(d))
	}
}

func parentDir(d string) string {
	if i := strings.LastIndex(d, "/"); i >= 0 {
		return d[:i]
	}
	return ""
}

func (g *gen) isJAXPackage(d string) bool {
	return strings.Contains(d, "/kernels") || strings.Contains(d, "/parallel") || strings.Contains(d, "/hot")
}

// initSource re-exports what export recorded for pkg, with __all__.
func (g *gen) initSource(pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"%s.\"\"\"\n", pkg)
	names := g.exports[pkg]
	if len(names) == 0 {
		return b.String()
	}
	b.WriteString("\n")
	var all []string
	for _, e := range names {
		mod, name, _ := strings.Cut(e, ":")
		fmt.Fprintf(&b, "from .%s import %s\n", mod[strings.LastIndex(mod, ".")+1:], name)
		all = append(all, fmt.Sprintf("    %q,\n", name))
	}
	fmt.Fprintf(&b, "\n__all__ = [\n%s]\n", strings.Join(all, ""))
	return b.String()
}
