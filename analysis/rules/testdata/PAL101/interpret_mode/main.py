import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def dict_kernel(x_ref, o_ref, send_sem, recv_sem):
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": 1}).start()


def axis_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = jax.lax.axis_index("x")
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": me}).start()


x = jnp.ones((8, 128))
# interpret=True skips Mosaic, but its discharge of a remote copy needs the
# axes of an enclosing shard_map: JAX contradicts "interpret mode is fine" here.
pl.pallas_call(dict_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA], interpret=True)(x)  # want: PAL101 "dict_kernel.*IndexError: list index out of range"
pl.pallas_call(axis_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA], interpret=True)(x)  # want: PAL101 "unbound axis name"
