# Nothing in this project names a platform: no Pallas TPU or GPU API, no
# jax[tpu] or jax[cuda] requirement. pallas-ls assumes TPU, Pallas's main
# target, and reports at warning severity, worded conditionally.
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x").astype(jnp.float32)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # want: warning PAL101 "on TPU \(assumed: no platform evidence\), with JAX [0-9.]+ this fails: NameError"


out = step(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
