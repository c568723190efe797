import numpy as np

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)  # want: PAL105 "without vma= and is traced inside a shard_map with check_vma on.*ValueError: When .check_vma=True. on .jax.shard_map., .vma. on"
    return pl.pallas_call(add_one_kernel, out_shape=out)(x)


mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
# check_rep defaults to True, and becomes check_vma.
jax.jit(shard_map(step, mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False))(jnp.ones((64, 128)))
