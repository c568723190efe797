import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def signal_right(barrier):
    right = (jax.lax.axis_index("x") + 1) % jax.lax.axis_size("x")
    pl.semaphore_signal(barrier, 1, device_id=(right,))


def kernel(x_ref, o_ref):
    barrier = pltpu.get_barrier_semaphore()  # reached: the helper below gets it
    signal_right(barrier)
    pl.semaphore_wait(barrier, 1)
    o_ref[...] = x_ref[...]


def step(x):
    params = pltpu.CompilerParams(vmem_limit_bytes=32 * 1024 * 1024, collective_id=0)
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=params,  # want: PAL204 "kernel `kernel` uses the barrier semaphore \(line \d+\) but its compiler params set no collective_id.*collective_id has to be specified when using a custom barrier"
    )(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((64, 128)))
jax.block_until_ready(out)
