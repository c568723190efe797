# Oracle driver (not part of the case): calls row_parallel as a caller
# outside the workspace would, under jax.jit with an Auto-axis mesh.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType

import layers

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
jax.jit(lambda x, w: layers.row_parallel(mesh, x, w))(jnp.ones((8, 8)), jnp.ones((8, 8)))
