# A TensorCore-mesh kernel under a fully manual shard_map whose mesh axes
# come from the environment (unknown here) asks the index of "cores": no
# core mesh, grid or mesh the workspace builds has that name (it is
# written nowhere else), so tracing the kernel fails unless the
# environment names it. PAL104 warns, conditionally.
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
    i = lax.axis_index("cores")  # want: warning PAL104 "`lax.axis_index` in kernel `kernel` names axis `cores`, which nothing else in the workspace writes.*unless a mesh or caller from outside the workspace binds it.*NameError: Found an unbound axis name: cores"
    o_ref[...] = x_ref[...] + i.astype(jnp.float32)


mesh = Mesh(np.array(jax.devices()), AXES)
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(kernel, mesh=mesh, in_specs=P(AXES[0]), out_specs=P(AXES[0]), check_vma=False))(X))
