# A ring kernel under a fully manual shard_map that asks the size of "y",
# an axis the mesh ("x") does not have (after a rename): tracing the
# kernel fails on the axis_size.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    me = lax.axis_index("x")
    n = lax.axis_size("y")  # want: PAL104 "`lax.axis_size` in kernel `kernel` names axis `y`, which the mesh of the shard_map around the call does not have \(mesh axes: x\).*NameError: unbound axis name: y"
    o_ref[...] = x_ref[...] + (me * n).astype(x_ref.dtype)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X))
