# JAX's bundled TPU kernels (jax.experimental.pallas.ops.tpu) are Mosaic
# kernels like any pallas_call: under a jit over several devices they
# cannot be partitioned.
import functools

import jax
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu import flash_attention as fa
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(jax.devices(), ("x",))
batch = NamedSharding(mesh, P("x"))


@functools.partial(jax.jit, in_shardings=(batch, batch, batch), out_shardings=batch)
def attend(q, k, v):
    return jax.shard_map(fa.flash_attention, mesh=mesh, in_specs=(P(), P(), P()), out_specs=P(), check_vma=False)(q, k, v)  # want: PAL103 "kernel `flash_attention` is called under a jit spanning several devices.*cannot be automatically partitioned"


q = jnp.ones((8, 2, 128, 128), jnp.float32)
attend(q, q, q)
