import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

FULL = pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (0, 0))


def _sorted(x):
    return jax.lax.sort(x, dimension=1)  # want: PAL215 "sort"


def sort_rows(x_ref, o_ref):
    o_ref[...] = _sorted(x_ref[...])


def run(x):
    return pl.pallas_call(
        sort_rows,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(1,), in_specs=[FULL], out_specs=FULL),
    )(x)


run(jnp.ones((8, 128), jnp.float32))
