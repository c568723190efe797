import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

FULL = pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (0, 0))


def prefix_sum(x_ref, o_ref):
    o_ref[...] = jnp.cumsum(x_ref[...], axis=1)


# Interpret mode evaluates the kernel without Mosaic: cumsum runs.
x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(
    prefix_sum,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(1,), in_specs=[FULL], out_specs=FULL),
    interpret=True,
)(x)
