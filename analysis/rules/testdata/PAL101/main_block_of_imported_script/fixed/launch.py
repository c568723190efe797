"""Try the ring kernel on one host: `python launch.py`."""

import jax
import jax.numpy as jnp

import kernels
from jax.sharding import PartitionSpec as P


def make_input(rows=8):
    return jnp.ones((rows, 128), jnp.float32)


if __name__ == "__main__":
    # A script of its own: a bare jit, no shard_map.
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    print(jax.jit(jax.shard_map(kernels.ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(make_input()))
