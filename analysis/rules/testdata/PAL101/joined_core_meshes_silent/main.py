# Look-alike of joined_core_meshes that JAX runs: the kernel asks the
# index of "x", the axis of both meshes the program may choose, so it is a
# core axis on either path and the kernel talks to no other device.
import functools
import os

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc

if os.environ.get("USE_SPARSECORE"):
    core_mesh = plsc.ScalarSubcoreMesh(axis_name="x", num_cores=1)
else:
    core_mesh = pltpu.TensorCoreMesh(axis_name="x", num_cores=1)


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def kernel(x_ref, o_ref):
    i = lax.axis_index("x")
    del i
    pltpu.sync_copy(x_ref, o_ref)


jax.block_until_ready(jax.jit(kernel)(jnp.ones((8, 128), jnp.float32)))
