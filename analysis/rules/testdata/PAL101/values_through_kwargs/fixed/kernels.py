# Kernels whose axis name arrives as a keyword: through **cfg, dict(...),
# a cfg["axis"] lookup inside the kernel, or a *args/**kwargs trampoline.
import jax
from jax.experimental.pallas import tpu as pltpu


def ring_kernel(x_ref, o_ref, send_sem, recv_sem, *, axis):
    me = jax.lax.axis_index(axis)
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={axis: me})
    copy.start()
    copy.wait()


def cfg_kernel(x_ref, o_ref, send_sem, recv_sem, *, cfg):
    me = jax.lax.axis_index(cfg["axis"])
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={cfg.get("axis"): me})
    copy.start()
    copy.wait()


def trampoline(*args, **kwargs):
    return ring_kernel(*args, **kwargs)


SEMS = [pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]
