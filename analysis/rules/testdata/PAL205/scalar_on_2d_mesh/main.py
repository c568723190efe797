import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref, sem):
    i = jax.lax.axis_index("x")
    pl.semaphore_signal(sem, 1, device_id=(i + 1) % 4)  # want: PAL205 "remote signal has 1 entry for a 2-axis mesh"
    pl.semaphore_wait(sem, 1)
    o_ref[...] = x_ref[...]


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.SemaphoreType.REGULAR])(x)


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
sharded = jax.shard_map(step, mesh=mesh, in_specs=P(("x", "y")), out_specs=P(("x", "y")), check_vma=False)
jax.block_until_ready(jax.jit(sharded)(jnp.ones((64, 128))))
