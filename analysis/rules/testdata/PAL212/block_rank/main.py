import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def fill(x_ref, o_ref):
    o_ref[...] = jnp.zeros(o_ref.shape, o_ref.dtype)


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    fill,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[pl.BlockSpec(block_shape=(128,), index_map=lambda i: (i,))],  # want: PAL212 "must have the same number of dimensions as the array shape"
    out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0)),
)(x)
