# jax.make_mesh without axis_types: Explicit axes from JAX 0.9.0, and from
# 0.9.1 shard_map checks in_specs against the argument's sharding, here an
# unsharded jnp.ones.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",))


def add_one(x):
    return x + 1


step = jax.jit(jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x")))  # want: PAL107 "in_specs passed to shard_map: P\('x', None\) does not match the specs of the input: P\(None, None\)"
jax.block_until_ready(step(jnp.ones((64, 128))))
