# A partial-manual shard_map over Explicit axes: up to JAX 0.11 only a
# shard_map manual over every mesh axis checks in_specs against the
# arguments; 0.12 checks this one too (the fixtures run at 0.11: silent).
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))


def add_one(x):
    return x + 1


step = jax.jit(jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}))
jax.block_until_ready(step(jnp.ones((64, 128))))
