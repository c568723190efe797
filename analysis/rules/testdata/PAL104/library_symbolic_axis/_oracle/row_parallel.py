# Oracle driver (not part of the case): calls row_parallel as a caller
# outside the workspace would, under jax.jit with an Auto-axis mesh and a
# weight sharded over "model".
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

import linear

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
jax.jit(lambda x, w: linear.row_parallel(x, w, P("model", None), mesh=mesh))(jnp.ones((8, 16)), jnp.ones((16, 16)))
