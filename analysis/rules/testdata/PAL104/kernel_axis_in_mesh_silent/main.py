# Look-alikes of kernel_axis_not_in_mesh that JAX accepts: the kernel's
# axis is the mesh's, or a named grid axis of the kernel itself.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x").astype(x_ref.dtype)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X))
