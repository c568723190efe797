# The look-alike of kernel_axis_unknown_mesh: the shard_map's mesh axes
# come from the environment, and the kernel asks the index of "x", a name
# the program also writes (the environment's default): the mesh may well
# have it (with MESH_AXES unset it does: JAX runs it clean), so PAL104
# says nothing.
import functools
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P

AXES = tuple(os.environ.get("MESH_AXES", "x").split(","))
core_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=1)


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def kernel(x_ref, o_ref):
    i = lax.axis_index("x")
    del i
    pltpu.sync_copy(x_ref, o_ref)


mesh = Mesh(np.array(jax.devices()), AXES)
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(kernel, mesh=mesh, in_specs=P(AXES[0]), out_specs=P(AXES[0]), check_vma=False))(X))
