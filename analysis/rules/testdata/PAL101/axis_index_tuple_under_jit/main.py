# A ring kernel that indexes the devices over two mesh axes at once,
# lax.axis_index(("y", "x")), jitted with shardings instead of shard_mapped:
# tracing the kernel fails on the axis_index, which JAX computes from the
# last name, so the NameError names "x".
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


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
    return pl.pallas_call(kernel, in_specs=[pl.BlockSpec(memory_space=pltpu.VMEM)],  # want: PAL101 "lax.axis_index\(\(\"y\", \"x\"\)\) at line 16.*NameError: Found an unbound axis name: x\."
                          out_specs=pl.BlockSpec(memory_space=pltpu.VMEM), out_shape=x)(x)


mesh = Mesh(np.array(jax.devices()).reshape((1, -1)), ("y", "x"))
x = jnp.arange(len(jax.devices()) * 8 * 128).reshape((-1, 128))
s = NamedSharding(mesh, P("x", None))
jax.block_until_ready(jax.jit(step, in_shardings=s, out_shardings=s)(x))
