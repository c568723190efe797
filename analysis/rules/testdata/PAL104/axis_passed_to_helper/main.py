# A helper that reduces over the axis it is given, called inside a
# shard_map over a mesh with one axis, "i", with a misspelt name: the
# only place the program writes "ii" is that argument, the name itself on
# its way to the collective, so no mesh can have it.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("i",))


def ring_sum(x, axis_name):
    size = lax.axis_size(axis_name)  # want: PAL104 "`lax.axis_size` names axis `ii`, inside a shard_map whose mesh has no such axis \(mesh axes: i\).*NameError: unbound axis name: ii"
    return x * size


def body(x_block):
    return ring_sum(x_block, "ii")


jax.block_until_ready(jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i")))(jnp.ones((16, 128))))
