# lax.axis_index only in an index_map: before JAX 0.4.33 Pallas looked for
# communication in the kernel body alone (has_communication), so inside
# the shard_map it lowers without the device mesh, and the index map's
# axis_index fails on the missing mesh.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401  (a TPU project)
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    spec = pl.BlockSpec(block_shape=x.shape, index_map=lambda i: (i + lax.axis_index("x") * 0, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), in_specs=[spec], out_specs=pl.BlockSpec(block_shape=x.shape, index_map=lambda i: (i, 0)))(x)  # want: PAL101 "only in a BlockSpec index_map.*AttributeError: 'NoneType' object has no attribute 'mesh_shape'"


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(shard_map(step, mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False))(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
