import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def index(i):
    return i, 0


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid=(2,),
    in_specs=[pl.BlockSpec((128, 512), index)],  # want: PAL216 "since JAX 0.4.31"
    out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=index),
)(x)
