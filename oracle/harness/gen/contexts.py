"""Where `step` runs and how the program runs it.

A context gives the setup lines, an optional `with` line, the program (a
callable built around step) and its arguments; a mode gives the lines
that run the program: call it, .lower() it, .trace() it, eval_shape it,
or lower it for TPU explicitly (`lower_tpu`, the oracle's check of its
own interception: it must give the first error `call` gives).
"""

import dataclasses

X8 = "X.reshape(8, 8, 128)"


@dataclasses.dataclass
class Context:
    setup: list
    program: str
    args: str = "X"
    with_: str = ""
    jitted: bool = True  # program has .lower/.trace
    pmap: bool = False


def _mesh1(api):
    return [f"mesh = {api.mesh((8,), ('x',))}"]


def _mesh2(api):
    return [f"mesh = {api.mesh((4, 2), ('x', 'y'))}"]


def _put(api):
    return _mesh1(api) + ['x = jax.device_put(X, NamedSharding(mesh, P("x")))']


def eager(api):
    return Context([], "step", jitted=False)


def jit1(api):
    return Context([], "jax.jit(step)")


def jit8_in(api):
    return Context(_mesh1(api), 'jax.jit(step, in_shardings=NamedSharding(mesh, P("x")), '
                                'out_shardings=NamedSharding(mesh, P("x")))')


def jit8_put(api):
    return Context(_put(api), "jax.jit(step)", args="x")


def ctx_with(api):
    return Context(_mesh1(api), "jax.jit(step)", with_="with mesh:")


def ctx_set(api):
    api.need("jax.set_mesh")
    return Context(_mesh1(api), "jax.jit(step)", with_="with jax.set_mesh(mesh):")


def explicit(api):
    api.need("make_mesh.axis_types").need("jax.set_mesh")
    setup = ['mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Explicit,))',
             'x = jax.device_put(X, NamedSharding(mesh, P("x")))']
    return Context(setup, "jax.jit(step)", args="x", with_="with jax.set_mesh(mesh):")


def mm_default(api):
    api.need("jax.make_mesh")
    setup = ['mesh = jax.make_mesh((8,), ("x",))', 'x = jax.device_put(X, NamedSharding(mesh, P("x")))']
    return Context(setup, "jax.jit(step)", args="x")


def _shmap(api, **kw):
    return api.shard_map("step", "mesh", 'P("x")', 'P("x")', **kw)


def shmap_full(api):
    return Context(_mesh1(api), f"jax.jit({_shmap(api)})")


def shmap_eager(api):
    return Context(_mesh1(api), _shmap(api), jitted=False)


def shmap_vma(api):
    return Context(_mesh1(api), f"jax.jit({_shmap(api, check=True)})")


def shmap_mm(api):
    api.need("jax.make_mesh")
    return Context(['mesh = jax.make_mesh((8,), ("x",))'], f"jax.jit({_shmap(api)})")


def shmap_full_2d(api):
    sm = api.shard_map("step", "mesh", 'P(("x", "y"))', 'P(("x", "y"))', axes=("x", "y"))
    return Context(_mesh2(api), f"jax.jit({sm})")


def shmap_partial(api):
    return Context(_mesh2(api), f"jax.jit({_shmap(api, manual=('x',), axes=('x', 'y'))})")


def _nested(inner_mesh):
    def context(api):
        inner = api.shard_map("step", inner_mesh, "P()", "P()", manual=("y",), axes=("x", "y"))
        outer = api.shard_map("inner", "mesh", 'P("x")', 'P("x")', manual=("x",), axes=("x", "y"))
        return Context(_mesh2(api) + [f"inner = {inner}"], f"jax.jit({outer})")
    return context


shmap_nested = _nested(None)  # the inner shard_map takes the context mesh
shmap_nested_mesh = _nested("mesh")  # ... or is given the mesh again


def _smap(api, mesh):
    api.need("jax.smap").need("jax.set_mesh")
    return Context(mesh(api), 'jax.jit(jax.smap(step, in_axes=0, out_axes=0, axis_name="x"))',
                   with_="with jax.set_mesh(mesh):")


def smap1(api):
    return _smap(api, _mesh1)


def smap2(api):
    return _smap(api, _mesh2)


def pmap(api):
    return Context([], 'jax.pmap(step, axis_name="x")', args=X8, jitted=False, pmap=True)


def pmap_nomerge(api):
    api.need("pmap_shmap_merge")
    return Context(['jax.config.update("jax_pmap_shmap_merge", False)'], 'jax.pmap(step, axis_name="x")',
                   args=X8, jitted=False, pmap=True)


def vmap(api):
    return Context([], 'jax.jit(jax.vmap(step, axis_name="x"))', args=X8)


CONTEXTS = {f.__name__: f for f in (
    eager, jit1, jit8_in, jit8_put, ctx_with, ctx_set, explicit, mm_default, shmap_full,
    shmap_eager, shmap_vma, shmap_mm, shmap_full_2d, shmap_partial, smap1, smap2,
    pmap, pmap_nomerge, vmap)}
CONTEXTS["shmap_nested"] = shmap_nested
CONTEXTS["shmap_nested_mesh"] = shmap_nested_mesh
MODERN_ONLY = {"ctx_set", "explicit", "shmap_vma", "shmap_mm", "shmap_nested", "shmap_nested_mesh",
               "smap1", "smap2"}


def mode_lines(mode, ctx, api):
    prog = ctx.program if (ctx.jitted or ctx.pmap or mode in ("call", "eval_shape")) \
        else f"jax.jit({ctx.program})"
    if ctx.pmap and mode in ("trace", "lower_tpu"):
        api.need("pmap.trace")
    if mode == "call":
        return [f"out = {prog}({ctx.args})", "jax.block_until_ready(out)"]
    if mode == "lower":
        return [f"lowered = {prog}.lower({ctx.args})"]
    if mode == "trace":
        return [f"traced = {prog}.trace({ctx.args})"]
    if mode == "eval_shape":
        return [f"shapes = jax.eval_shape({prog}, {ctx.args})"]
    if mode == "lower_tpu":
        api.need("lower.lowering_platforms")
        return [f'lowered = {prog}.trace({ctx.args}).lower(lowering_platforms=("tpu",))']
    raise ValueError(mode)
