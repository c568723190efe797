import jax.numpy as jnp
from jax.experimental.shard_map import shard_map  # want: PAL302 "deprecated"
from jax.sharding import Mesh, PartitionSpec as P


def body(x):
    return x


def run(mesh):
    f = shard_map(body, mesh, P("x"), P("x"), check_rep=False)  # want: PAL302 "shard_map` is deprecated" PAL302 "check_rep="
    g = shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))  # want: PAL302 "deprecated"
    return f, g
