import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh

from layer import Layer

mesh = Mesh(np.array(jax.devices()[:8]), ("x",))
jax.block_until_ready(Layer(mesh)(jnp.ones((64, 128))))
