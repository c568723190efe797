import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def unused(x_ref, o_ref):
    # nothing reads the ref: tracing drops it before lowering.
    acc = jax.empty_ref(jax.ShapeDtypeStruct((256,), jnp.float32), memory_space=pltpu.ACC(0))
    o_ref[...] = x_ref[0]


def vmem(x_ref, o_ref):
    buf = jax.empty_ref(jax.ShapeDtypeStruct((256,), jnp.float32), memory_space=pltpu.VMEM)
    buf[...] = x_ref[0]
    o_ref[...] = buf[...]


x = jnp.ones((8, 256), jnp.float32)
out = jax.ShapeDtypeStruct((256,), x.dtype)
b = pl.pallas_call(unused, out_shape=out)(x)
c = pl.pallas_call(vmem, out_shape=out)(x)
