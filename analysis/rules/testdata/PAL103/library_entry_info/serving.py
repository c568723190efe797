# Library code: nothing in the workspace calls these functions, so whether
# the kernel fails depends on the caller; a hint says what callers must do.
# serve's sharding spec is its caller's (library_jit_shards_over_axis has
# the literal one, which no caller can make work).
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)  # want: info PAL103 "under a jit spanning several devices .in_shardings with a NamedSharding.*callers must run it inside jax.shard_map.*library function serve"


def scale(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


def serve(x, mesh, spec):
    step = jax.jit(add_one, in_shardings=NamedSharding(mesh, spec), out_shardings=NamedSharding(mesh, spec))
    return step(x)


def serve_sharded(x, mesh):
    # The look-alike: the library shard_maps the kernel itself.
    body = jax.shard_map(scale, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return jax.jit(body, in_shardings=NamedSharding(mesh, P("x")))(x)


def serve_one(x):
    # No shardings: a jit on one device; nothing to hint.
    return jax.jit(scale)(x)
