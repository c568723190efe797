import jax
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu.all_gather import all_gather

mesh = jax.make_mesh((jax.device_count(),), ("x",))
print(all_gather(jnp.ones((8, 128)), mesh=mesh, axis_name="x"))
