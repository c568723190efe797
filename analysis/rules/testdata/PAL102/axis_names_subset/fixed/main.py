import functools

import jax
import numpy as np
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)  # want: PAL102 "leaves mesh axes model not manual.*cannot be automatically partitioned"


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("data", "model"))
f = jax.shard_map(add_one, mesh=mesh, in_specs=P("data"), out_specs=P("data"))
f(jnp.ones((8, 128)))
