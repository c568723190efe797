import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


# Interpret mode does not check the TPU tiling.
x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct((256, 512), jnp.float32),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(2, 8),
        in_specs=[pl.BlockSpec(block_shape=(128, 64), index_map=lambda i, j: (i, j))],
        out_specs=pl.BlockSpec(block_shape=(128, 64), index_map=lambda i, j: (i, j)),
    ),
    interpret=True,
)(x)
