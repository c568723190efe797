# A remote copy with a dict device id inside a shard_map that leaves "y"
# automatic: from JAX 0.10 Pallas lowering linearises the id with
# axis_index over every mesh axis and fails on "y" (NameError) before the
# custom call's partitioning error (JAX 0.9 and older).
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref, send_sem, recv_sem):
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": 1})
    copy.start()
    copy.wait()


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: PAL102 "leaves mesh axes y not manual.*NameError: Found an unbound axis name: y. To fix this, please call axis_index under `jax.shard_map`."
                          scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
f = jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
jax.block_until_ready(jax.jit(f)(jnp.ones((64, 128), jnp.float32)))
