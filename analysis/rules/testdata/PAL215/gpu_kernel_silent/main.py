import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton


def prefix_sum(x_ref, o_ref):
    o_ref[...] = jnp.cumsum(x_ref[...], axis=1)


# A Triton kernel: Mosaic's rule table does not apply.
x = jnp.ones((8, 128), jnp.float32)
y = pl.pallas_call(
    prefix_sum,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltriton.CompilerParams(num_warps=4),
)(x)
