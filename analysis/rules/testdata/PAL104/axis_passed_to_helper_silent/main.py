# Look-alikes of axis_passed_to_helper that JAX runs: the helper given the
# mesh's own axis, as a literal and through a constant.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

AXIS = "i"
mesh = Mesh(np.array(jax.devices()), (AXIS,))


def ring_sum(x, axis_name):
    return x * lax.axis_size(axis_name)


def body(x_block):
    return ring_sum(x_block, "i") + ring_sum(x_block, AXIS)


jax.block_until_ready(jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i")))(jnp.ones((16, 128))))
