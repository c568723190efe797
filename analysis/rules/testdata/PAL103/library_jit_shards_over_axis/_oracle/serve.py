# Oracle driver (not part of the case): calls serve as a caller outside
# the workspace would, under jax.jit with an 8-device Auto-axis mesh.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType

import serving

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
jax.jit(lambda a: serving.serve(a, mesh))(jnp.ones((64, 128)))
