import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import SEMS, push_kernel
from jax.sharding import PartitionSpec as P


def push(x):
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    return jax.shard_map(pl.pallas_call(push_kernel, out_shape=x, scratch_shapes=SEMS), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: PAL101 "remote DMA.*Cannot use communication in pallas_call without shard_map"


traced = jax.jit(push).trace(jnp.ones((8, 128)))
lowered = traced.lower()
