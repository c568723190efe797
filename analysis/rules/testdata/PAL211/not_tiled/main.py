import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct((256, 512), jnp.float32),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(2,),
        in_specs=[pl.BlockSpec(block_shape=(128, 100), index_map=lambda i: (i, 0))],  # want: PAL211 "last two dimensions of your block shape are divisible by 8 and 128"
        out_specs=pl.BlockSpec(block_shape=(128, 100), index_map=lambda i: (i, 0)),  # want: PAL211 "output 0"
    ),
)(x)
