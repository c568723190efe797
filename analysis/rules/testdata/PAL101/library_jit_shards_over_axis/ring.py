# A library ring whose shard_map was turned into a jit with shardings:
# nothing in the workspace calls ring_all, but no caller can make it work,
# since jit refuses the sharding over "x" inside a shard_map that makes
# "x" manual, and the communicating kernel needs every axis manual. A
# warning, as ring_all may have no caller. The oracle's driver
# (_oracle/ring_all.py) lowers ring_all for TPU under jax.jit with an
# 8-device Auto-axis mesh: NameError, as predicted, 0.8 to 0.12 (and, by
# hand with 0.11.2, with Explicit axes too; inside a fully manual
# shard_map it fails as well, ValueError).
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
    return pl.pallas_call(  # want: warning PAL101 "communicating kernel `ring_kernel` \(lax.axis_index\(\"x\"\) at line \d+ and 1 more\), and callers cannot run it inside a fully manual jax.shard_map: `jax.jit\(ring, …\)` shards over `x` at ring.py:\d+, which JAX refuses inside a shard_map that makes `x` manual \(library function ring_all\); with JAX 0.11 this fails: NameError: Found an unbound axis name: x"
        ring_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec(memory_space=pl.ANY),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)


def ring_all(mesh, x):
    return jax.jit(ring, in_shardings=NamedSharding(mesh, P("x")), out_shardings=NamedSharding(mesh, P("x")))(x)
