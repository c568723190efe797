import jax
import numpy as np
from jax.sharding import Mesh


def make_mesh():
    return Mesh(np.array(jax.devices()).reshape(1, -1), ("data", "model"))
