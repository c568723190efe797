package main

import (
	"fmt"
	"strings"
)

// parallelModule writes the shard_map wrappers around the chain: the
// call form, the jit-over-partial-decorator form inside a factory, and
// the bare decorator form over a module-level mesh. One family in eight
// still uses the pre-0.6 jax.experimental.shard_map spelling.
func (g *gen) parallelModule(f *family) {
	f.parMod = fmt.Sprintf("acme.%s.parallel.%s_%d", f.area, f.kname, f.i)
	f.sharded = fmt.Sprintf("sharded_%s_%d", f.kname, f.i)
	f.step = fmt.Sprintf("make_step_%d", f.i)
	w := &pyWriter{}
	legacy := f.i%8 == 7
	w.add(fmt.Sprintf("\"\"\"Sharded entry points for %s.\"\"\"\n\nimport functools\n\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n", f.kname))
	if legacy {
		w.add("from jax.experimental.shard_map import shard_map\n")
	}
	w.add("from jax.sharding import PartitionSpec as P\n\n")
	first := f.chain[0]
	w.add(fmt.Sprintf("from %s import %s\n", first.module, first.name))
	w.blank()
	smap := "jax.shard_map"
	if legacy {
		smap = "shard_map"
	}
	w.add(expand(parallelTmpl, "sharded", f.sharded, "step", f.step, "first", first.name, "smap", smap,
		"decorated", "sharded_step_"+itoa(f.i)))
	for target := g.between(60, 200); w.lines < target; {
		w.blank()
		w.add(g.annotate(g.jaxHelper(false), true))
	}
	g.addFile(modPath(f.parMod), w.String(), true)
	g.export(f.parMod, f.sharded)
}

const parallelTmpl = `
_MESH = jax.make_mesh((jax.device_count(),), ("x",))


def $sharded(x, mesh):
    fn = $smap($first, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return fn(x)


def $step(mesh, remote=True):
    @jax.jit
    @functools.partial($smap, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    def step(x):
        return $first(x, remote=remote)

    return step


@$smap(mesh=_MESH, in_specs=P("x"), out_specs=P("x"))
def $decorated(x):
    return $first(x)
`

// script is the family's launch script. A buggy family also runs the
// chain under a bare jax.jit, which PAL101 reports at the kernel call.
func (g *gen) script(f *family) string {
	pkg, base := splitModule(f.parMod)
	imports := fmt.Sprintf("from %s import %s\nfrom %s import %s, %s\n", pkg, base, f.parMod, f.sharded, f.step)
	bug := ""
	if f.buggy {
		imports += fmt.Sprintf("from %s import %s\n", f.chain[0].module, f.chain[0].name)
		bug = fmt.Sprintf("    out = jax.jit(%s)(out)\n", f.chain[0].name)
	}
	return expand(scriptTmpl, "kname", f.kname, "imports", imports, "rows", itoa(64*g.between(1, 16)),
		"steps", itoa(g.between(1, 10)), "sharded", f.sharded, "step", f.step, "bug", bug,
		"decorated", base+".sharded_step_"+itoa(f.i))
}

const scriptTmpl = `
"""Runs $kname on a TPU slice."""

import argparse
import time

import jax
import jax.numpy as jnp

$imports

def main(argv=None):
    parser = argparse.ArgumentParser(description="$kname benchmark")
    parser.add_argument("--rows", type=int, default=$rows)
    parser.add_argument("--steps", type=int, default=$steps)
    args = parser.parse_args(argv)
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    x = jnp.ones((args.rows, 128), jnp.float32)
    out = $sharded(x, mesh)
    step = $step(mesh)
    start = time.perf_counter()
    for _ in range(args.steps):
        out = step(out)
    out = $decorated(out)
$bug    out.block_until_ready()
    print(f"{args.steps} steps in {time.perf_counter() - start:.3f}s", out.shape)


if __name__ == "__main__":
    main()
`

// familyTest is the family's pytest module: the local kernel against its
// reference, the ring kernel with communication switched off, and the
// sharded wrapper.
func (g *gen) familyTest(f *family) string {
	w := &pyWriter{}
	w.add(expand(familyTestTmpl, "kmod", f.kernMod, "local", f.local, "ref", f.ref, "parmod", f.parMod,
		"sharded", f.sharded))
	if !f.literal {
		w.blank()
		w.add(expand(ringOffTestTmpl, "kmod", f.kernMod, "ring", f.ring))
	}
	return strings.ReplaceAll(w.String(), "\n\n\n\n", "\n\n\n")
}

const familyTestTmpl = `
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from $kmod import $local, $ref
from $parmod import $sharded


def _inputs(rows=64):
    x = jnp.arange(rows * 128, dtype=jnp.float32).reshape(rows, 128)
    return x, x + 1.0


def test_local_matches_reference():
    x, y = _inputs()
    np.testing.assert_allclose($local(x, y, scale=0.5), $ref(x, y, 0.5), rtol=1e-5)


@pytest.mark.parametrize("rows", [8, 16, 32])
def test_local_shapes(rows):
    x, y = _inputs(rows)
    assert $local(x, y).shape == (rows, 128)


def test_sharded():
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    x, _ = _inputs()
    assert $sharded(x, mesh).shape == x.shape
`

const ringOffTestTmpl = `
def test_ring_without_remote_is_local():
    from $kmod import $ring

    x = jnp.ones((64, 128), jnp.float32)
    assert $ring(x, remote=False).shape == x.shape
`
