# JAX's bundled TPU kernels where they work: inside a fully manual
# shard_map, in interpret mode, and under a jit with no sharding.
import functools

import jax
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu.flash_attention import flash_attention
from jax.experimental.pallas.ops.tpu.megablox import gmm
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(jax.devices(), ("x",))
batch = NamedSharding(mesh, P("x"))


@functools.partial(jax.jit, in_shardings=(batch, batch, batch), out_shardings=batch)
def attend(q, k, v):
    return jax.shard_map(flash_attention, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(q, k, v)


@functools.partial(jax.jit, in_shardings=(batch, None, None), out_shardings=batch)
def grouped(lhs, rhs, sizes):
    return gmm(lhs, rhs, sizes, interpret=True)


q = jnp.ones((8, 2, 128, 128), jnp.float32)
attend(q, q, q)
jax.jit(flash_attention)(q, q, q)
grouped(jnp.ones((512, 128), jnp.float32), jnp.ones((2, 128, 128), jnp.float32), jnp.array([256, 256], jnp.int32))
