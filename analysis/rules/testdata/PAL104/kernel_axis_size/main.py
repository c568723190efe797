# A local kernel that asks the size of a device axis: nothing binds "x"
# outside a shard_map, so tracing the kernel fails on the axis_size.
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * lax.axis_size("x")


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # want: PAL104 "kernel `kernel` asks lax.axis_size\(\"x\"\).*NameError: unbound axis name: x"


jax.block_until_ready(jax.jit(step)(jnp.ones((64, 128), jnp.float32)))
