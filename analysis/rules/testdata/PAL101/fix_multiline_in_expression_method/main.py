import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def ring_kernel(x_ref, y_ref, o_ref, p_ref, send_sem, recv_sem):
    right = (jax.lax.axis_index("x") + 1) % jax.lax.axis_size("x")
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": right}).start()
    p_ref[...] = y_ref[...]


class Ring:
    def __init__(self):
        self.scale = 2

    def __call__(self, x, y):
        return self.scale * pl.pallas_call(  # want: PAL101 "ring_kernel"
            ring_kernel,
            out_shape=(x, y),
            scratch_shapes=[pltpu.SemaphoreType.DMA] * 2,
        )(x, y)[0]


Ring()(jnp.ones((8, 128)), jnp.ones((8, 128)))
