# One entry per statement or expression kind, each reaching a communicating
# kernel from inside that kind only.
import jax
import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": me})
    copy.start()
    copy.wait()


SEMS = [pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]
X = jnp.ones((8, 128))
