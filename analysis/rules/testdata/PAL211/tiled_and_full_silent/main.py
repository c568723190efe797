import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def scaled(s_ref, t_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[0] + t_ref[0, 0]


def tiled(x):
    # Multiples of (8, 128): fine whatever the array.
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(x.shape[0] // 8,),
            in_specs=[pl.BlockSpec(block_shape=(8, 256), index_map=lambda i: (i, 0))],
            out_specs=pl.BlockSpec(block_shape=(8, 256), index_map=lambda i: (i, 0)),
        ),
    )(x)


def full(x):
    # Blocks equal to the whole array: any size.
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(1,),
            in_specs=[pl.BlockSpec(block_shape=x.shape, index_map=lambda i: (0, 0))],
            out_specs=pl.BlockSpec(block_shape=(10, 130), index_map=lambda i: (0, 0)),
        ),
    )(x)


def squeezed(x):
    # A squeezed leading dimension; the last two are tiled.
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(x.shape[0],),
            in_specs=[pl.BlockSpec(block_shape=(None, 8, 128), index_map=lambda i: (i, 0, 0))],
            out_specs=pl.BlockSpec(block_shape=(None, 8, 128), index_map=lambda i: (i, 0, 0)),
        ),
    )(x)


def unknown_array(x, bn):
    # The array's shape is not known here: never a verdict.
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            in_specs=[pl.BlockSpec(block_shape=(x.shape[0], bn), index_map=lambda: (0, 0))],
            out_specs=pl.BlockSpec(block_shape=(x.shape[0], bn), index_map=lambda: (0, 0)),
        ),
    )(x)


def prefetch(s, t, x):
    # A scalar-prefetch operand has no spec; an SMEM block is not tiled.
    return pl.pallas_call(
        scaled,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1,
            grid=(2,),
            in_specs=[
                pl.BlockSpec(block_shape=(2, 3), index_map=lambda i, s_ref: (0, 0), memory_space=pltpu.SMEM),
                pl.BlockSpec(block_shape=(8, 256), index_map=lambda i, s_ref: (i, 0)),
            ],
            out_specs=pl.BlockSpec(block_shape=(8, 256), index_map=lambda i, s_ref: (i, 0)),
        ),
    )(s, t, x)


tiled(jnp.ones((16, 256), jnp.float32))
prefetch(jnp.ones((1,), jnp.int32), jnp.ones((2, 3), jnp.float32), jnp.ones((16, 256), jnp.float32))
full(jnp.ones((10, 130), jnp.float32))
squeezed(jnp.ones((3, 8, 128), jnp.float32))
unknown_array(jnp.ones((16, 128), jnp.float32), 128)
