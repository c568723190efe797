# A kernel under a fully manual shard_map over ("y", "x") asks the size of
# a pair of axes, one of them renamed ("z"): the mesh has no such axis, so
# tracing the kernel fails on the axis_size.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    me = lax.axis_index(("y", "x"))
    n = lax.axis_size(("y", "z"))  # want: PAL104 "`lax.axis_size` in kernel `kernel` names axis `z`, which the mesh of the shard_map around the call does not have \(mesh axes: y, x\).*NameError: unbound axis name: z"
    o_ref[...] = x_ref[...] + (me * n).astype(x_ref.dtype)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(np.array(jax.devices()).reshape((1, -1)), ("y", "x"))
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
sharded = jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
jax.block_until_ready(jax.jit(sharded)(X))
