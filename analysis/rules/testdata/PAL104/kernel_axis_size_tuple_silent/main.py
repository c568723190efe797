# A core-mesh kernel that asks the size of a tuple holding only its core
# axis: the core mesh binds it, so the kernel traces.
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

core_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=1)


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def kernel(x_ref, o_ref):
    n = lax.axis_size(("core",))  # traced first: the core mesh binds it
    del n
    pltpu.sync_copy(x_ref, o_ref)


jax.block_until_ready(jax.jit(kernel)(jnp.ones((8, 128), jnp.float32)))
