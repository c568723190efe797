# Look-alike: jax.make_jaxpr(f, axis_env=[("i", 4)]) traces f with "i"
# bound, and the shard_map below binds "i" too: nothing is unbound.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


def f(x):
    return jax.lax.psum(x, "i")


print(jax.make_jaxpr(f, axis_env=[("i", 4)])(2.0))

mesh = Mesh(np.array(jax.devices()), ("i",))
g = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P("i"), out_specs=P()))
print(g(jnp.ones(len(jax.devices()))))
