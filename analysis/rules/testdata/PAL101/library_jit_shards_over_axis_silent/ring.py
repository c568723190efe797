# The look-alike of library_jit_shards_over_axis that must stay silent:
# the layer as it should be, a jit with shardings over "x" around a
# shard_map that makes "x" manual (the shard_map body starts with no
# evidence). The oracle's driver (_oracle/ring_all.py) lowers ring_all for
# TPU under jax.jit with an 8-device mesh: JAX runs it clean.
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import NamedSharding, PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = lax.axis_index("x")
    right = lax.rem(me + 1, lax.axis_size("x"))
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=(right,), device_id_type=pl.DeviceIdType.MESH)
    copy.start()
    copy.wait()


def ring(x):
    return pl.pallas_call(
        ring_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec(memory_space=pl.ANY),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)


def ring_all(mesh, x):
    # The layer as it should be: the jit's shardings over "x" outside, the
    # kernel inside a shard_map that makes "x" manual.
    body = jax.shard_map(ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
    return jax.jit(body, in_shardings=NamedSharding(mesh, P("x")), out_shardings=NamedSharding(mesh, P("x")))(x)

