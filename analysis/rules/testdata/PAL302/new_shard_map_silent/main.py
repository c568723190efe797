import jax
from jax.experimental.shard_map import shard_map
from jax.sharding import PartitionSpec as P


def body(x):
    return x


def run(mesh):
    jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
    return shard_map(body, mesh, P("x"), P("x"), check_rep=False)
