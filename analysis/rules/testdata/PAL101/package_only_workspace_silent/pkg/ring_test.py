"""Every file of this workspace is in one package, pkg/, whose tests
import it by its own name; here the kernel runs inside a fully manual
shard_map, so nothing fails."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

from pkg import kernels


def test_ring_in_shard_map():
    mesh = Mesh(np.array(jax.devices()), ("x",))
    f = jax.shard_map(kernels.ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
    jax.jit(f)(jnp.ones((8, 128)))
