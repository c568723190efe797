# Oracle driver (not part of the case): calls each layer as its callers
# would; column_sharded inside a shard_map that makes "data" (its
# reduction axis) manual and leaves "model" automatic.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

import layers

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
x, w = jnp.ones((8, 8)), jnp.ones((8, 8))
with jax.set_mesh(mesh):
    jax.block_until_ready(jax.jit(lambda x, w: layers.row_parallel(mesh, x, w, ("model", None)))(x, w))
    inner = jax.shard_map(lambda x, w: layers.column_sharded(x, w, ("data", "model")), mesh=mesh,
                          in_specs=(P("data"), P()), out_specs=P("data"), axis_names={"data"})
    jax.block_until_ready(jax.jit(inner)(x, w))
