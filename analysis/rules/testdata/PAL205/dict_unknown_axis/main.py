import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref, send_sem, recv_sem):
    right = (jax.lax.axis_index("x") + 1) % 8
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem,
                                        device_id={"x": right, "model": 1})  # want: PAL205 "names \"model\", not an axis of the mesh.*Unrecognized axes in device_id"
    copy.start()
    copy.wait()


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
sharded = jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
jax.block_until_ready(jax.jit(sharded)(jnp.ones((64, 128))))
