import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    right = (jax.lax.axis_index("x") + 1) % jax.lax.axis_size("x")
    pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": right}).start()


def ring(x, mesh):
    call = pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)
    return call(x)  # want: PAL101 "ring_kernel"


# A concrete Mesh: Auto axes in every JAX version (a jax.make_mesh mesh is
# Explicit from 0.9, where the wrapped call would fail PAL107).
mesh = jax.sharding.Mesh(jax.devices(), ("x",))
ring(jnp.ones((8, 128)), mesh)
