# A psum on an unbound axis earlier in the same jitted body: tracing fails
# there, before the communicating kernel is lowered, so both findings
# predict the psum's NameError.
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": 1})
    copy.start()
    copy.wait()


def step(x):
    y = lax.psum(x, "x")  # want: PAL104 "`lax.psum` names axis `x`.*NameError: Found an unbound axis name: x. To fix this, please call psum"
    # want+1: PAL101 "first, at `lax.psum` on line 18, before the kernel: PAL104\): NameError: Found an unbound axis name: x. To fix this, please call psum"
    return pl.pallas_call(ring_kernel, out_shape=jax.ShapeDtypeStruct(y.shape, y.dtype),
                          scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(y)


jax.block_until_ready(jax.jit(step)(jnp.ones((64, 128), jnp.float32)))
