import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from kernels.ring import reference, ring_all_reduce


def test_ring_eager():
    # Wrong: eager call, no shard_map.
    x = jnp.ones((8, 128))
    assert (ring_all_reduce(x) == reference(x)).all()


def test_ring_sharded():
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    x = jnp.ones((jax.device_count() * 8, 128))
    f = jax.shard_map(ring_all_reduce, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
    f(x)
