# The experimental shard_map skipped the context-mesh check until JAX 0.8.0;
# from then on it is the same function as jax.shard_map.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.experimental.shard_map import shard_map  # want: PAL302 "deprecated"
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))


def body(x):
    # want+1: PAL302 "deprecated"
    return jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=False)(x)  # want: PAL106 "context mesh" PAL302 "check_rep"


out = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(jnp.ones((64, 128)))
jax.block_until_ready(out)
