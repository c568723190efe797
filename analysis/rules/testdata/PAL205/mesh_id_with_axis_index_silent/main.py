import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def send_right(x_ref, o_ref, send_sem, recv_sem):
    # The same copy with its id from lax.axis_index: Pallas sees the named
    # axis, so lowering has the mesh and the 1-entry id fits the 1-D mesh.
    right = (jax.lax.axis_index("x") + 1) % 8
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=(right,))
    copy.start()
    copy.wait()


def send_to_logical_one(x_ref, o_ref, send_sem, recv_sem):
    # A constant LOGICAL id needs no mesh.
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=1,
                                        device_id_type=pl.DeviceIdType.LOGICAL)
    copy.start()
    copy.wait()


def call(kernel, x):
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]),
    )(x)


def step(x):
    return call(send_to_logical_one, call(send_right, x))


mesh = Mesh(np.array(jax.devices()).reshape(8,), ("x",))
sharded = jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
jax.block_until_ready(jax.jit(sharded)(jnp.ones((64, 128), jnp.float32)))
