# jax_pmap_shmap_merge=True (the default from 0.8.0): pmap is jit over a
# fully manual shard_map, where the kernel may communicate.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, send_sem, recv_sem):
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=1,
                                 device_id_type=pltpu.DeviceIdType.LOGICAL).start()


def f(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)


if hasattr(jax.config, "jax_pmap_shmap_merge"):  # the option is gone from 0.10.0
    jax.config.update("jax_pmap_shmap_merge", True)
jax.block_until_ready(jax.pmap(f, axis_name="x")(jnp.ones((8, 8, 128))))
