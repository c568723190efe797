"""Random permutations across devices. Inside the package this module is
`pkg.random`: a bare `import random` elsewhere is the standard library's
(Python 3 has no implicit relative imports), so the test below never calls
this `shuffle`."""

import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def _ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem, device_id={"x": (me + 1) % jax.lax.axis_size("x")}
    )
    copy.start()
    copy.wait()


def shuffle(x):
    return pl.pallas_call(  # want: info PAL101 "callers must"
        _ring_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)
