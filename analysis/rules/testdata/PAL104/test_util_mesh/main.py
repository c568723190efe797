# JAX's own tests build meshes with jax._src.test_util.create_mesh: its
# axis names are known like make_mesh's, so a kernel asking the index of
# an axis that mesh lacks ("y") is found.
import jax
import jax.numpy as jnp
from jax import lax
from jax._src import test_util as jtu
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref):
    me = lax.axis_index("y")  # want: PAL104 "`lax.axis_index` in kernel `kernel` names axis `y`, which the mesh of the shard_map around the call does not have \(mesh axes: x\).*NameError"
    o_ref[...] = x_ref[...] + me.astype(x_ref.dtype)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = jtu.create_mesh((jax.device_count(),), ("x",))
X = jnp.ones((8 * jax.device_count(), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X))
