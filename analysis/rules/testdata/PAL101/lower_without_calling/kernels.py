# push_kernel communicates through a remote DMA only: Pallas lowering
# rejects it outside shard_map, tracing does not. ring_kernel also asks for
# lax.axis_index, which fails while tracing.
import jax
from jax.experimental.pallas import tpu as pltpu


def push_kernel(x_ref, o_ref, send_sem, recv_sem):
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": 0})
    copy.start()
    copy.wait()


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": me})
    copy.start()
    copy.wait()


SEMS = [pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]
