import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def run(x):
    # Interpret mode builds no TPU custom call: the collective_id is never checked.
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True,
                          compiler_params=pltpu.CompilerParams(collective_id=0))(x)


jax.block_until_ready(run(jnp.ones((8, 128))))
