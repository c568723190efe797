import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def handshake(right):
    barrier = pltpu.get_barrier_semaphore()
    pl.semaphore_signal(barrier, 1, device_id=(right,))
    pl.semaphore_wait(barrier, 1)


def kernel(x_ref, o_ref, *, sync):
    i = jax.lax.axis_index("x")
    right = (i + 1) % jax.lax.axis_size("x")
    if sync:
        # Both branches are traced: the barrier is in the module even if i > 100 never holds.
        jax.lax.cond(i > 100, lambda: handshake(right), lambda: None)
    o_ref[...] = x_ref[...]


def step(x):
    return pl.pallas_call(
        functools.partial(kernel, sync=True),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(),  # want: PAL204 "uses the barrier semaphore \(line \d+\) but its compiler params set no collective_id"
    )(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((64, 128)))
jax.block_until_ready(out)
