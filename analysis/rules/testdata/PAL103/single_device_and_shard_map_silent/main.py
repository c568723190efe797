import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(jax.devices(), ("x",))
jax.jit(add_one)(jnp.ones((8, 128)))
add_one(jnp.ones((8, 128)))
step = jax.jit(jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x")),
               in_shardings=NamedSharding(mesh, P("x")))
step(jnp.ones((8, 128)))


def gpu_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


from jax.experimental.pallas import mosaic_gpu as plgpu

jax.jit(lambda x: pl.pallas_call(gpu_kernel, out_shape=x, compiler_params=plgpu.CompilerParams())(x),
        in_shardings=NamedSharding(mesh, P("x")))(jnp.ones((8, 128)))
