import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref, send_sem, recv_sem, *, ring_axis):
    if ring_axis is not None:
        me = jax.lax.axis_index(ring_axis)
        pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={ring_axis: me + 1}).start()
    else:
        pltpu.make_async_copy(x_ref, o_ref, send_sem).start()


def run(x, ring_axis=None):
    mesh = jax.make_mesh((jax.device_count(),), ("model",))
    return jax.shard_map(pl.pallas_call(  # want: PAL101 "`kernel`.*unbound axis name: model"
        functools.partial(kernel, ring_axis=ring_axis),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    ), mesh=mesh, in_specs=P("model"), out_specs=P("model"), check_vma=False)(x)


x = jnp.ones((8, 128))
run(x)  # local: communication switched off
run(x, ring_axis="model")
