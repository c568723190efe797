import numpy as np

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


# check_rep=False: nothing checks the body.
mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
jax.jit(shard_map(step, mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False))(jnp.ones((64, 128)))
