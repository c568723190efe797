# Look-alike: dict ids whose keys are axes of the device mesh ("x") and of
# the core mesh ("core"), and the size of the core axis: nothing fails.
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P

core_mesh = pltpu.TensorCoreMesh(axis_name="core")


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh,
                   scratch_types=[pltpu.SemaphoreType.REGULAR])
def kernel(x_ref, o_ref, sem):
    pl.semaphore_signal(sem, 1, device_id={"x": 0, "core": 0})
    pl.semaphore_wait(sem, 1)


mesh = Mesh(np.array(jax.devices()), ("x",))
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(kernel, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X))
