import jax
import numpy as np
from jax.sharding import Mesh
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu.all_gather import all_gather

mesh = Mesh(np.array(jax.devices()), ("x",))
print(all_gather(jnp.ones((8, 128)), mesh=mesh, axis_name="x"))
