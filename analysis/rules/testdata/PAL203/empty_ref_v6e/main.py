import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    acc = jax.empty_ref(jax.ShapeDtypeStruct((8, 256), jnp.float32), memory_space=pltpu.ACC(0))  # want: PAL203 "on the configured chip.*ValueError: Accumulators are not available on TPU v6e"
    acc[...] = x_ref[...]
    o_ref[...] = acc[...]


x = jnp.ones((8, 256), jnp.float32)
y = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
