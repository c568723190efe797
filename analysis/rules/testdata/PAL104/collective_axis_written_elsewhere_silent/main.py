# Look-alike: a model whose configuration picks its branch. The test runs
# it on a one-axis mesh with the expert-parallel branch off; the analysis
# cannot tell the flag, and "expert" is an axis of the production mesh
# the code builds elsewhere, so the psum over it stays silent.
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401
from jax.sharding import Mesh, PartitionSpec as P

EXPERT_PARALLEL = os.environ.get("EXPERT_PARALLEL") == "1"


def production_mesh():
    return Mesh(np.array(jax.devices()).reshape(-1, 1), ("data", "expert"))


def layer(x):
    if EXPERT_PARALLEL:
        x = lax.psum(x, "expert")
    return lax.psum(x, "data")


mesh = Mesh(np.array(jax.devices()), ("data",))
step = jax.jit(jax.shard_map(layer, mesh=mesh, in_specs=P("data"), out_specs=P()))
jax.block_until_ready(step(jnp.ones((8 * len(jax.devices()), 128))))
