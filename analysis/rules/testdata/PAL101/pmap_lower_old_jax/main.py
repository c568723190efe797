# pmap(f).lower(x) lowers f as a call would:
# before 0.8 in the legacy replica context, where a communicating kernel
# fails; a local kernel lowers there.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, send_sem, recv_sem):
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=1,
                                 device_id_type=pltpu.DeviceIdType.LOGICAL).start()


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def f(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)  # want: PAL101 "Replica lowering for Mosaic kernels not implemented"


def g(x):
    return pl.pallas_call(local_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


x = jnp.ones((8, 8, 128))
jax.pmap(f, axis_name="x").lower(x)
jax.pmap(g, axis_name="x").lower(x)
