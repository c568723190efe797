# An inner shard_map given the concrete mesh inside an outer shard_map's
# body: from JAX 0.6.1 the context mesh there (the outer mesh, its "x"
# axis typed Manual) differs from the mesh passed.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


def add_one(x):
    return x + 1


def per_row(x):
    return jax.shard_map(add_one, mesh=mesh, in_specs=P(), out_specs=P(), axis_names={"y"})(x)  # want: PAL106 "concrete mesh.*should match the mesh passed to shard_map"


step = jax.jit(jax.shard_map(per_row, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}))
jax.block_until_ready(step(jnp.ones((64, 128))))
