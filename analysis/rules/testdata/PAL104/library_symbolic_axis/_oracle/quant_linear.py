# Oracle driver (not part of the case): calls a QuantLinear layer as a
# caller outside the workspace would, under jax.jit with an Auto-axis mesh.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType

import linear

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
layer = linear.QuantLinear(mesh, ("model", None))
jax.jit(lambda x, w: layer(x, w))(jnp.ones((8, 16)), jnp.ones((16, 16)))
