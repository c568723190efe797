package main

import (
	"fmt"
	"strings"
)

// family is one kernel with everything around it: the kernel module, a
// chain of ops modules that leads to it, shard_map wrappers, a launch
// script and tests.
type family struct {
	i       int
	area    string
	kname   string
	literal bool // the kernel always communicates on "x"; no remote flag
	buggy   bool // the launch script also calls the chain under a bare jax.jit
	kernMod string
	ring    string
	local   string
	ref     string
	chain   []link // chain[0] is what the wrappers call
	parMod  string
	sharded string
	step    string
}

// link is one function of the call chain and its module.
type link struct{ module, name string }

// families writes families until budget lines are spent (at least one).
func (g *gen) families(budget int) {
	start := g.jaxLines
	for i := 0; i == 0 || g.jaxLines-start < budget; i++ {
		g.family(i)
	}
}

func (g *gen) family(i int) {
	f := &family{i: i, area: areas[i%len(areas)], kname: pick(g, kernelNames),
		literal: i%3 == 2, buggy: i%9 == 4}
	f.kernMod = fmt.Sprintf("acme.%s.kernels.k%d_%s", f.area, i, f.kname)
	f.ring = fmt.Sprintf("%s_%d", f.kname, i)
	f.local = fmt.Sprintf("local_%s_%d", pick(g, verbs), i)
	f.ref = fmt.Sprintf("reference_%d", i)
	g.addFile(modPath(f.kernMod), g.kernelModule(f), true)
	g.export(f.kernMod, f.ring)
	g.export(f.kernMod, f.local)
	g.chainModules(f)
	g.parallelModule(f)
	g.addFile(fmt.Sprintf("scripts/run_%s_%d.py", f.kname, i), g.script(f), true)
	g.addFile(fmt.Sprintf("tests/%s/test_%s_%d.py", f.area, f.kname, i), g.familyTest(f), true)
}

// kernelModule writes the family's kernels and pads the module with JAX
// helpers and small local kernels to 150-600 lines.
func (g *gen) kernelModule(f *family) string {
	w := &pyWriter{}
	w.add(expand(kernelHeader, "what", f.kname+" for "+f.area, "rows", itoa(8*g.between(1, 8))))
	w.blank()
	w.add(g.annotate(g.ringKernel(itoa(f.i), f.ring, f.literal), true))
	w.blank()
	w.add(g.annotate(expand(localTmpl, "k", itoa(f.i), "local", f.local, "ref", f.ref, "scale", g.scale()), true))
	for target := g.between(150, 600); w.lines < target; {
		w.blank()
		w.add(g.annotate(g.jaxHelper(true), true))
	}
	return w.String()
}

func (g *gen) ringKernel(k, name string, literal bool) string {
	if literal {
		return expand(ringLiteralTmpl, "k", k, "ring", name, "steps", itoa(g.between(2, 8)))
	}
	return expand(ringFlagTmpl, "k", k, "ring", name, "steps", itoa(g.between(2, 8)),
		"scale", g.scale(), "cid", itoa(g.between(0, 7)))
}

func (g *gen) scale() string { return fmt.Sprintf("%d.%d", g.between(0, 3), g.between(1, 9)) }

// jaxHelper is a JAX helper; withPallas allows small local kernels, which
// use the kernel module's block constants.
func (g *gen) jaxHelper(withPallas bool) string {
	n := len(jaxHelperTmpls)
	t := g.r.IntN(n)
	if !withPallas && t == 3 {
		t = 0
	}
	g.seq++
	return expand(jaxHelperTmpls[t], "fn", "_"+pick(g, verbs)+"_"+pick(g, nouns)+"_"+itoa(g.seq), "n", itoa(g.seq%97+1))
}

// chainModules writes the 3-6 functions that lead from the wrappers to
// the kernel, spread over one to three ops modules in order (module m
// imports only module m+1, so there are no import cycles), innermost
// module first.
func (g *gen) chainModules(f *family) {
	depth := g.between(3, 6)
	mods := g.between(1, min(3, depth))
	byMod := make([][]int, mods)
	for j := 0; j < depth; j++ {
		m := j * mods / depth
		module := fmt.Sprintf("acme.%s.ops.%s_%d_s%d", f.area, f.kname, f.i, m)
		f.chain = append(f.chain, link{module, fmt.Sprintf("%s_stage%d_%d", pick(g, verbs), j, f.i)})
		byMod[m] = append(byMod[m], j)
	}
	for m := mods - 1; m >= 0; m-- {
		g.addFile(modPath(f.chain[byMod[m][0]].module), g.chainModule(f, byMod[m]), true)
	}
}

// chainModule writes the chain functions at the given indexes.
func (g *gen) chainModule(f *family, idx []int) string {
	w := &pyWriter{}
	mod := f.chain[idx[0]].module
	w.add(fmt.Sprintf("\"\"\"%s ops: stages of the %s pipeline.\"\"\"\n\nimport functools\n\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n", f.area, f.kname))
	last := idx[len(idx)-1]
	callee := g.importNext(w, f, last, mod)
	for n := len(idx) - 1; n >= 0; n-- {
		j := idx[n]
		w.blank()
		w.add(g.annotate(g.chainFunc(f, j, callee), true))
		callee = f.chain[j].name
	}
	for target := g.between(80, 250); w.lines < target; {
		w.blank()
		w.add(g.annotate(g.jaxHelper(false), true))
	}
	return w.String()
}

// importNext imports what chain function last calls (the next module's
// first function, or the kernel launcher) and returns how to call it.
func (g *gen) importNext(w *pyWriter, f *family, last int, mod string) string {
	target := link{f.kernMod, f.ring}
	if last+1 < len(f.chain) {
		target = f.chain[last+1]
	}
	pkg, base := splitModule(target.module)
	switch g.r.IntN(4) {
	case 0:
		w.add(fmt.Sprintf("\nfrom %s import %s\n", target.module, target.name))
		return target.name
	case 1:
		w.add(fmt.Sprintf("\nfrom %s import %s as _next\n", pkg, base))
		return "_next." + target.name
	case 2:
		if target.module != f.kernMod {
			w.add(fmt.Sprintf("\nfrom . import %s\n", base))
			return base + "." + target.name
		}
		fallthrough
	default:
		if target.module == f.kernMod {
			w.add(fmt.Sprintf("\nfrom %s import %s\n", pkg, target.name)) // the package re-exports it
			return target.name
		}
		w.add(fmt.Sprintf("\nimport %s\n", target.module))
		return target.module + "." + target.name
	}
}

func splitModule(mod string) (pkg, base string) {
	i := strings.LastIndex(mod, ".")
	return mod[:i], mod[i+1:]
}

// chainFunc is one stage: it reshapes, then calls the next stage, either
// directly or through a functools.partial.
func (g *gen) chainFunc(f *family, j int, callee string) string {
	args := "y, axis_name=axis_name, remote=remote"
	if j == len(f.chain)-1 && f.literal {
		args = "y"
	}
	call := fmt.Sprintf("    out = %s(%s)\n", callee, args)
	if g.chance(0.3) && !(j == len(f.chain)-1 && f.literal) {
		call = fmt.Sprintf("    run = functools.partial(%s, axis_name=axis_name)\n    out = run(y, remote=remote)\n", callee)
	}
	return fmt.Sprintf(`def %s(x, *, axis_name="x", remote=True):
    y = jnp.asarray(x, jnp.float32)
    if y.ndim != 2:
        y = y.reshape(-1, y.shape[-1])
%s    return out.astype(x.dtype)
`, f.chain[j].name, call)
}
