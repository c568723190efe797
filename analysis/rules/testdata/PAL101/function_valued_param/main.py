import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    my_id = jax.lax.axis_index("x")
    n = jax.lax.axis_size("x")
    copy = pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem, device_id={"x": (my_id + 1) % n}
    )
    copy.start()
    copy.wait()


def local_kernel(x_ref, o_ref, sem, _unused_sem):
    copy = pltpu.make_async_copy(x_ref, o_ref, sem)
    copy.start()
    copy.wait()


def launch(kernel, x):
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)  # want: PAL101 "`ring_kernel`"


launch(local_kernel, jnp.ones((8, 128)))
launch(ring_kernel, jnp.ones((8, 128)))
