import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.ones((16, 128), jnp.float32)
# interpret mode never runs the Mosaic lowering, whose check this is.
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(2,)),
    interpret=True,
)(x)
jax.block_until_ready(y)
