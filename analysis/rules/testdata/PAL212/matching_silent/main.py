import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def scaled(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[0]


def block_row(i, j):
    return i, j


def plain(x):
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2, 4),
        in_specs=[pl.BlockSpec(block_shape=(128, 128), index_map=block_row)],
        out_specs=pl.BlockSpec(block_shape=(128, 128), index_map=lambda *idx: idx),
    )(x)


def squeezed(x):
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0],),
        in_specs=[pl.BlockSpec(block_shape=(None, 8, 128), index_map=lambda b: (b, 0, 0))],
        out_specs=pl.BlockSpec(block_shape=(None, 8, 128), index_map=lambda b, k=0: (b, k, 0)),
    )(x)


def prefetch(s, x):
    # Scalar prefetch: the index maps also receive the prefetched refs.
    return pl.pallas_call(
        scaled,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1,
            grid=(2,),
            in_specs=[pl.BlockSpec(block_shape=(128, 512), index_map=lambda i, s_ref: (i, 0))],
            out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=lambda i, s_ref: (i, 0)),
        ),
    )(s, x)


plain(jnp.ones((256, 512), jnp.float32))
squeezed(jnp.ones((4, 8, 128), jnp.float32))
prefetch(jnp.ones((1,), jnp.int32), jnp.ones((256, 512), jnp.float32))



def branchy_index(i, flip=False):
    # Two returns: the count is not judged.
    if flip:
        return 0, i
    return i, 0


pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct((256, 512), jnp.float32),
    grid=(2,),
    in_specs=[pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0))],
    out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=branchy_index),
)(jnp.ones((256, 512), jnp.float32))
