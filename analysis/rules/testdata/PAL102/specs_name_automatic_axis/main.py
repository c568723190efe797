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


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
x = jnp.ones((64, 256))
# axis_names makes only x manual, but in_specs shards over y too: JAX rejects
# the specs before the body (and its kernel) is traced.
f = jax.jit(jax.shard_map(add_one, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x"), axis_names={"x"}))  # want: PAL102 "in_specs names mesh axis y, which axis_names leaves automatic.*must refer to an axis marked as manual"
jax.block_until_ready(f(x))
