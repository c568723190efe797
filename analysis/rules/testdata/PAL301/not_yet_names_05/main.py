import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    params = pltpu.CompilerParams(dimension_semantics=())  # want: PAL301 "`pltpu.CompilerParams` does not exist in JAX 0.5.3 yet: it was added in 0.6.2"
    return pl.pallas_call(kernel, out_shape=x, compiler_params=params)(x)


def shard_map(f, **kw):
    return f  # a function of our own: not jax.shard_map


mesh = Mesh(np.array(jax.devices()), ("x",))
sharded = jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x"))  # want: PAL301 "`jax.shard_map` does not exist in JAX 0.5.3 yet: it was added in 0.6.1"
local = shard_map(add_one, mesh=mesh)
print(sharded(jnp.ones((64, 128))))
