# Look-alikes of mixed_axes_not_in_mesh that JAX runs: the psum over both
# of the mesh's names, and over one of them.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, -1), ("i", "j"))
X = jnp.arange(16 * 16.0).reshape(16, 16)


def total(x_block):
    return lax.psum(x_block, ("i", "j"))


def column_total(x_block):
    return lax.psum(x_block, "i")


jax.block_until_ready(jax.jit(jax.shard_map(total, mesh=mesh, in_specs=P("i", "j"), out_specs=P()))(X))
jax.block_until_ready(jax.jit(jax.shard_map(column_total, mesh=mesh, in_specs=P("i", "j"), out_specs=P(None, "j")))(X))
