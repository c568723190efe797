# A TensorCore-mesh kernel (pl.kernel over the chip's cores, axis "core")
# under a fully manual shard_map over "x" asks the size of "cores": an
# axis of neither mesh, so tracing the kernel fails.
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P

core_mesh = pltpu.TensorCoreMesh(axis_name="core")


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def kernel(x_ref, o_ref):
    n = lax.axis_size("cores")  # want: PAL104 "`lax.axis_size` in kernel `kernel` names axis `cores`, which the mesh of the shard_map around the call does not have \(mesh axes: x\).*NameError: unbound axis name: cores"
    o_ref[...] = x_ref[...] * n


mesh = Mesh(np.array(jax.devices()), ("x",))
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(kernel, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X))
