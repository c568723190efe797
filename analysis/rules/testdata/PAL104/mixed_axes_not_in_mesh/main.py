# A psum over two names, one of them an axis the mesh has and the inputs
# are sharded over ("i"), the other a misspelt one ("jj") no mesh has.
# Under check_vma the operand varies over "i" and not over "jj", which
# JAX's psum rejects before it looks the names up (from 0.8.2); older
# releases fail on the missing name.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, -1), ("i", "j"))


def total(x_block):
    return lax.psum(x_block, ("i", "jj"))  # want: PAL104 "`lax.psum` names axis `jj`, inside a shard_map whose mesh has no such axis \(mesh axes: i, j\).*"


f = jax.jit(jax.shard_map(total, mesh=mesh, in_specs=P("i", "j"), out_specs=P(None, "j")))
jax.block_until_ready(f(jnp.arange(16 * 16.0).reshape(16, 16)))
