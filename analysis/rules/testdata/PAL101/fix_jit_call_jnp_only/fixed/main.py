import jax.numpy as jnp
from jax import jit, lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
import jax
from jax.sharding import PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = lax.axis_index("x")
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": me}).start()


call = pl.pallas_call(ring_kernel, out_shape=jnp.ones((8, 128)), scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)
mesh = jax.make_mesh((jax.device_count(),), ("x",))
y = jit(jax.shard_map(call, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((8, 128)))  # want: PAL101 "ring_kernel"
