import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def local_kernel(x_ref, o_ref, sem):
    copy = pltpu.make_async_copy(x_ref, o_ref, sem)
    copy.start()
    copy.wait()


def barrier_kernel(x_ref, o_ref, sem):
    barrier = pltpu.get_barrier_semaphore()
    pl.semaphore_signal(barrier, 1)
    pl.semaphore_wait(barrier, 1)
    pltpu.sync_copy(x_ref, o_ref)


def run(x):
    a = pl.pallas_call(local_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA])(x)
    return pl.pallas_call(barrier_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA],
                          compiler_params=pltpu.CompilerParams(collective_id=0))(a)


run(jnp.ones((8, 128)))
