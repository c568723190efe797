import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


def scale(x):
    return x * 2


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("data", "model"))
x = jnp.ones((8, 128))
# Every axis manual: the kernel lowers.
y = jax.jit(jax.shard_map(add_one, mesh=mesh, in_specs=P("data"), out_specs=P("data")))(x)
# Eager, with "model" automatic: the shard_map itself fails before 0.7, kernel or not.
z = jax.shard_map(scale, mesh=mesh, in_specs=P("data"), out_specs=P("data"), axis_names={"data"})(x)  # want: PAL102 "applied eagerly, outside jax.jit.*NotImplementedError \(raised with no message\)"
jax.block_until_ready((y, z))
