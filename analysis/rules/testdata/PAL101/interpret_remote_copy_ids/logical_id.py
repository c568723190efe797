import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, send_sem, recv_sem):
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=0,
                                        device_id_type=pl.DeviceIdType.LOGICAL)
    copy.start()
    copy.wait()


x = jnp.ones((8, 128))
# LOGICAL ids too: the discharge picks the first named axis, and there is none.
print(pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2, interpret=True)(x))  # want: PAL101 "`kernel`.*IndexError: list index out of range"
