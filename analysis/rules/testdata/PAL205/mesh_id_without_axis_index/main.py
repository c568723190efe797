import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def send_to_one(x_ref, o_ref, send_sem, recv_sem):
    # A constant MESH id and no lax.axis_index: Pallas sees no communication,
    # so it lowers the kernel without the mesh, even inside the shard_map.
    copy = pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem,
        device_id=(1,),  # want: PAL205 "device_id of this remote DMA is MESH-typed, but Pallas sees no communication in kernel `send_to_one`.*Number of device ids must match the number of mesh axes, but got 1 ids for a 0D mesh.*device_id_type=pl.DeviceIdType.LOGICAL"
    )
    copy.start()
    copy.wait()


def step(x):
    return pl.pallas_call(
        send_to_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]),
    )(x)


mesh = Mesh(np.array(jax.devices()).reshape(8,), ("x",))
sharded = jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
jax.block_until_ready(jax.jit(sharded)(jnp.ones((64, 128), jnp.float32)))
