import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P
import jax


def kernel(x_ref, o_ref, send_sem, recv_sem):
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=1)
    copy.start()
    copy.wait()


x = jnp.ones((8, 128))
# interpret=True discharges the remote copy against the axes of an enclosing
# shard_map; at top level there are none.
jax.shard_map(pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2, interpret=True), mesh=None, in_specs=P(), out_specs=P(), check_vma=False)(x)  # want: PAL101 "`kernel`.*must have same length"
