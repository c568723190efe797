import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    right = (jax.lax.axis_index("x") + 1) % 4
    # Pallas converts this id, and fails, before the custom call's
    # partitioning check for the automatic axis "y": PAL205 alone reports.
    copy = pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem,
        device_id=(right,),  # want: PAL205 "device_id of this remote DMA has 1 entry for a 2-axis mesh.*but got 1 ids for a 2D mesh."
    )
    copy.start()
    copy.wait()


def step(x):
    return pl.pallas_call(
        ring_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
sharded = jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}, check_vma=False)
jax.block_until_ready(jax.jit(sharded)(jnp.ones((64, 128))))
