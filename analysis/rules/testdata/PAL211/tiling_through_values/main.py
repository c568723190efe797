import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

M, N = 256, 512
BM = M // 2
BN = N - 4


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def run(x):
    out_shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    grid = (x.shape[0] // BM,)
    return pl.pallas_call(
        add_one,
        out_shape=out_shape,
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=grid,
            in_specs=[pl.BlockSpec(block_shape=(BM, BN), index_map=lambda i: (i, 0))],  # want: PAL211 "divisible by 8 and 128"
            out_specs=pl.BlockSpec(block_shape=(BM, BN), index_map=lambda i: (i, 0)),  # want: PAL211 "output 0"
        ),
    )(x)


run(jnp.zeros((M, N), jnp.float32))
