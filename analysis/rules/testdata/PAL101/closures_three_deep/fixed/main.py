import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def outer(axis):
    def middle():
        def kernel(x_ref, o_ref, send_sem, recv_sem):
            def helper():
                pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={axis: 0}).start()
            helper()

        def launch(x):
            mesh = jax.make_mesh((jax.device_count(),), ("x",))
            return jax.shard_map(pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: PAL101 "`kernel`.*remote DMA"
        return launch
    return middle()


run = outer("x")
run(jnp.ones((8, 128)))
