# Look-alikes of joined_axis_names that JAX runs: the axis picked from
# the environment inside a fully manual shard_map whose mesh has both
# names; and a choice between an axis and (), a collective over no axis
# (nothing shows which one runs).
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

BATCH_AXES = ("data", "model") if os.environ.get("SPLIT_BATCH") else "data"
REDUCE_AXES = "data" if os.environ.get("REDUCE_OVER_DATA") else ()
mesh = Mesh(np.array(jax.devices()).reshape(2, -1), ("data", "model"))
X = jnp.ones((8, 128))


def shard_id(x):
    return x + lax.axis_index(BATCH_AXES)


jax.block_until_ready(jax.jit(jax.shard_map(shard_id, mesh=mesh, in_specs=P("data"), out_specs=P("data")))(X))


def maybe_reduce(x):
    return lax.psum(x, REDUCE_AXES)


jax.block_until_ready(jax.jit(maybe_reduce)(X))
