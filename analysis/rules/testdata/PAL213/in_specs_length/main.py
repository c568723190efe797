import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


x = jnp.ones((256, 512), jnp.float32)
spec = pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0))
y = pl.pallas_call(
    add,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[spec],  # want: PAL213 "in_specs"
    out_specs=spec,
)(x, x)
