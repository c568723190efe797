# Oracle driver (not part of the case): builds each layer and calls it as
# a caller outside the workspace would, with an Auto-axis mesh:
# make_mapped's under jax.jit, make_local's inside a shard_map over
# "model". JAX runs both.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

import layers

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
x = jnp.ones((8, 8))
jax.jit(layers.make_mapped(mesh))(x, x)
jax.jit(jax.shard_map(layers.make_local(), mesh=mesh, in_specs=P(None, "model"), out_specs=P(None, "model"),
                      axis_names={"model"}, check_vma=False))(x)
