import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def rows(i):
    row = i
    return row, 0


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[pl.BlockSpec(block_shape=(128, 512), index_map=rows)],
    out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i,)),  # want: PAL212 "must return 2 values"
)(x)
