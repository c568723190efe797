# Look-alike: the same two-axis ring kernel inside a fully manual
# shard_map, where both names are bound.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, y_ref):
    def body(ready_sem, send_sem, recv_sem):
        my_id = lax.axis_index(("y", "x"))
        num_devices = lax.axis_size(("y", "x"))
        neighbor = lax.rem(my_id + 1, num_devices)
        device_id = {("y", "x"): neighbor}
        pl.semaphore_signal(ready_sem, device_id=device_id)
        pl.semaphore_wait(ready_sem)
        copy_done = pltpu.async_remote_copy(x_ref, y_ref, send_sem, recv_sem, device_id=device_id)
        copy_done.wait_send()
        copy_done.wait_recv()

    pl.run_scoped(body, pltpu.SemaphoreType.REGULAR, pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA)


def step(x):
    return pl.pallas_call(kernel, in_specs=[pl.BlockSpec(memory_space=pltpu.VMEM)],
                          out_specs=pl.BlockSpec(memory_space=pltpu.VMEM), out_shape=x)(x)


mesh = Mesh(np.array(jax.devices()).reshape((1, -1)), ("y", "x"))
x = jnp.arange(len(jax.devices()) * 8 * 128).reshape((-1, 128))
sharded = jax.shard_map(step, mesh=mesh, in_specs=P("x", None), out_specs=P("x", None), check_vma=False)
jax.block_until_ready(jax.jit(sharded)(x))
