import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def barrier_kernel(x_ref, o_ref):
    barrier = pltpu.get_barrier_semaphore()
    right = (jax.lax.axis_index("x") + 1) % jax.lax.axis_size("x")
    pl.semaphore_signal(barrier, 1, device_id=(right,))
    pl.semaphore_wait(barrier, 1)
    o_ref[...] = x_ref[...]


def plain_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def scratch_barrier_kernel(x_ref, o_ref, sem):
    # A core-local semaphore scratch, not the cross-device barrier.
    pl.semaphore_signal(sem, 1)
    pl.semaphore_wait(sem, 1)
    o_ref[...] = x_ref[...]


def with_id(x):
    return pl.pallas_call(barrier_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=pltpu.CompilerParams(collective_id=0))(x)


def no_id(x):
    return pl.pallas_call(plain_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=pltpu.CompilerParams(collective_id=None))(x)


def scratch_sem(x):
    return pl.pallas_call(scratch_barrier_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.SemaphoreType.REGULAR])(x)


def step(x):
    return scratch_sem(no_id(with_id(x)))


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((64, 128)))
jax.block_until_ready(out)
