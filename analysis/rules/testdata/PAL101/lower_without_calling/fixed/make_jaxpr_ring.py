import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import SEMS, ring_kernel
from jax.sharding import PartitionSpec as P


def ring(x):
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    return jax.shard_map(pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=SEMS), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: PAL101 "lax.axis_index.*NameError: Found an unbound axis name: x"


print(jax.make_jaxpr(ring)(jnp.ones((8, 128))))
