import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P
from jax.experimental.shard_map import shard_map


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    right = (jax.lax.axis_index("x") + 1) % jax.lax.axis_size("x")  # want: PAL301 "axis_size. does not exist in JAX 0.5 yet: it was added in 0.6.1"
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": right}).start()


mesh = jax.make_mesh((jax.device_count(),), ("x",))
run = lambda x: shard_map(pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2), mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False)(x)  # want: PAL101 "ring_kernel"
run(jnp.ones((8, 128)))
