import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(x_ref, o_ref, *, factor):
    o_ref[...] = x_ref[...] * factor


x = jnp.ones((256, 512), jnp.float32)
y = pl.pallas_call(
    functools.partial(scale, 2.0),  # want: PAL214 "takes 2 positional arguments but 3 were given"
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
)(x)
