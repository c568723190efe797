import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("data", "model"))
jax.shard_map(add_one, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(jnp.ones((8, 128)))
jax.shard_map(add_one, mesh=mesh, in_specs=P("data"), out_specs=P("data"), axis_names={"data", "model"})(jnp.ones((8, 128)))


def inner(x):
    # The concrete mesh inside the outer shard_map's body: JAX 0.6.1+ rejects it (PAL106).
    return jax.shard_map(add_one, mesh=mesh, in_specs=P(), out_specs=P(), axis_names={"model"})(x)  # want: PAL106 "should match the mesh passed to shard_map"


# Nested shard_maps compose: data (outer) + model (inner) = every axis.
jax.shard_map(inner, mesh=mesh, in_specs=P("data"), out_specs=P("data"), axis_names={"data"})(jnp.ones((8, 128)))

# Mesh axes unknown: never an error.
def unknown_mesh(m, x):
    return jax.shard_map(add_one, mesh=m, in_specs=P("data"), out_specs=P("data"), axis_names={"data"})(x)
