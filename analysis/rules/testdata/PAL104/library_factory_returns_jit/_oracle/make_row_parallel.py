# Oracle driver (not part of the case): builds the layer and calls it as
# a caller outside the workspace would, under jax.jit with an Auto-axis
# mesh.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType

import layers

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
layer = layers.make_row_parallel(mesh)
jax.jit(layer)(jnp.ones((8, 8)), jnp.ones((8, 8)))
