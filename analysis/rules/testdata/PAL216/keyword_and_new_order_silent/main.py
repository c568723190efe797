import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def index(i):
    return i, 0


def rows(n):
    return (n, 512)


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[pl.BlockSpec(index_map=index, block_shape=(128, 512))],
    # A block shape computed by a call, then the index map: the new order.
    out_specs=pl.BlockSpec(rows(128), index),
)(x)
