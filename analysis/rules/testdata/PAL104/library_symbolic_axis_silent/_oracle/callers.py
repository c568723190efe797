# Oracle driver (not part of the case): calls row_parallel, reduce_other
# (inside a shard_map over "data") and batched as callers outside the
# workspace would, with an Auto-axis mesh. JAX runs them all.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

import linear

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
x, w = jnp.ones((8, 16)), jnp.ones((16, 16))
jax.jit(lambda a, b: linear.row_parallel(a, b, P("model", None), mesh=mesh))(x, w)
jax.jit(jax.shard_map(lambda a: linear.reduce_other(a, mesh, "model", "data"), mesh=mesh, in_specs=P("data"), out_specs=P(),
                      axis_names={"data"}, check_vma=False))(x)
jax.jit(lambda a: linear.batched(a, mesh, "model"))(x)
