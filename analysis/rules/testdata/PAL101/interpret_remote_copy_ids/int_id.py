import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, send_sem, recv_sem):
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=1)
    copy.start()
    copy.wait()


x = jnp.ones((8, 128))
# interpret=True discharges the remote copy against the axes of an enclosing
# shard_map; at top level there are none.
pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2, interpret=True)(x)  # want: PAL101 "`kernel`.*must have same length"
