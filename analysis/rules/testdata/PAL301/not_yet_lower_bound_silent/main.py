import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P

# jax>=0.4.30 is a floor: the installed JAX may well have these names, so
# names newer than the floor are not reported.


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
floor_only = jax.make_mesh  # added in 0.4.32, newer than the floor
print(jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(jnp.ones((64, 128))))
