# A kernel under a fully manual shard_map whose body asks the index of an
# axis the shard_map's mesh does not have ("y", after a rename): nothing
# binds it, so tracing the kernel fails on the axis_index.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    me = lax.axis_index("y")  # want: PAL104 "`lax.axis_index` in kernel `kernel` names axis `y`, which the mesh of the shard_map around the call does not have \(mesh axes: x\).*NameError"
    o_ref[...] = x_ref[...] + me.astype(x_ref.dtype)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X))
