# Oracle driver (not part of the case): calls ring_all as a caller outside
# the workspace would, under jax.jit with an 8-device Auto-axis mesh.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType

import ring

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
jax.jit(lambda a: ring.ring_all(mesh, a))(jnp.ones((64, 128)))
