import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    acc = jax.empty_ref(jax.ShapeDtypeStruct((8, 256), jnp.bfloat16), memory_space=pltpu.ACC(1))  # want: PAL203 "Acc ref dtype must be float32 or int32, got bfloat16"
    acc[...] = x_ref[...]
    o_ref[...] = acc[...]


x = jnp.ones((8, 256), jnp.bfloat16)
y = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
