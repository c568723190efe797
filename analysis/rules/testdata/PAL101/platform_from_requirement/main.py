# No Pallas TPU API anywhere, but requirements.txt asks for jax[tpu].
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x").astype(jnp.float32)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # want: error PAL101 "; with JAX [0-9.]+ this fails: NameError"


out = step(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
