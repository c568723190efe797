# A TensorCore-mesh kernel asks the index over ("x", "core"): a tuple that
# mixes the core axis with a device axis is a device-axis index (JAX looks
# "core" up first, then "x"), so the kernel communicates, and under a
# plain jit nothing binds "x": tracing fails on it.
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

core_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=1)


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def kernel(x_ref, o_ref):
    i = lax.axis_index(("x", "core"))
    del i
    pltpu.sync_copy(x_ref, o_ref)


jax.block_until_ready(jax.jit(kernel)(jnp.ones((8, 128), jnp.float32)))  # want: PAL101 "communicating kernel `kernel`.*called outside a fully manual jax.shard_map.*NameError: Found an unbound axis name: x"
