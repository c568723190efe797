import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

ACC_TYPE = jax.ShapeDtypeStruct((256,), jnp.float32)


def kernel(x_ref, o_ref):
    acc = jax.empty_ref(ACC_TYPE, memory_space=pltpu.ACC(0))  # want: PAL203 "fails to lower on every TPU chip"
    acc[...] = x_ref[0]
    o_ref[...] = acc[...]


x = jnp.ones((8, 256), jnp.float32)
y = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((256,), x.dtype))(x)
