# A module with no kernel at all: a shard_map tutorial step whose body
# sums over "j", an axis its mesh does not have.
# Modules that name shard_map and a collective are checked like those
# that reach Pallas.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("i",))


@jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P())
def total(x_block):
    return jax.lax.psum(x_block.sum(), "j")  # want: PAL104 "`lax.psum` names axis `j`, inside a shard_map whose mesh has no such axis \(mesh axes: i\).*AssertionError"


print(total(jnp.arange(8.0 * len(jax.devices()))))
