# Oracle driver (not part of the case): calls each function as a caller
# outside the workspace would, with an Auto-axis mesh: replicated inside
# a fully manual shard_map, other_axis inside a shard_map over "data",
# untouched under jax.jit. JAX runs them all.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

import layers

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
x = jnp.ones((8, 8))
jax.jit(jax.shard_map(lambda a: layers.replicated(mesh, a), mesh=mesh, in_specs=P("data", "model"), out_specs=P(),
                      check_vma=False))(x)
jax.jit(jax.shard_map(lambda a: layers.other_axis(mesh, a), mesh=mesh, in_specs=P("data"), out_specs=P(),
                      axis_names={"data"}, check_vma=False))(x)
jax.jit(layers.untouched)(x)
