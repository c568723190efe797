import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=pltpu.CompilerParams())(x)


def scale(x):
    return x * 2


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("data", "model"))
x = jnp.ones((8, 128))
# Eager and every axis manual (axis_names omitted, or naming every axis).
y = jax.shard_map(add_one, mesh=mesh, in_specs=P("data"), out_specs=P("data"), check_vma=False)(x)
w = jax.shard_map(add_one, mesh=mesh, in_specs=P("data"), out_specs=P("data"), axis_names={"data", "model"})(x)
# Partial, but under jax.jit: the traced path supports automatic axes.
z = jax.jit(jax.shard_map(scale, mesh=mesh, in_specs=P("data"), out_specs=P("data"), axis_names={"data"}))(x)
jax.block_until_ready((y, w, z))
