import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def full_tuple_kernel(x_ref, o_ref, send_sem, recv_sem):
    i = jax.lax.axis_index("x")
    j = jax.lax.axis_index("y")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=((i + 1) % 4, j))
    copy.start()
    copy.wait()


def dict_kernel(x_ref, o_ref, send_sem, recv_sem):
    # A dict id names some axes; JAX completes the others with this device's coordinates.
    i = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": (i + 1) % 4})
    copy.start()
    copy.wait()


def logical_kernel(x_ref, o_ref, send_sem, recv_sem):
    i = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=(i + 1) % 8,
                                        device_id_type=pl.DeviceIdType.LOGICAL)
    copy.start()
    copy.wait()


def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)


def step_2d(x):
    return call(logical_kernel, call(dict_kernel, call(full_tuple_kernel, x)))


def one_tuple_kernel(x_ref, o_ref, send_sem, recv_sem):
    i = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=((i + 1) % 8,))
    copy.start()
    copy.wait()


def step_1d(x):
    return call(one_tuple_kernel, x)


mesh_2d = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
mesh_1d = Mesh(np.array(jax.devices()), ("x",))
x = jnp.ones((64, 128))
y = jax.jit(jax.shard_map(step_2d, mesh=mesh_2d, in_specs=P(("x", "y")), out_specs=P(("x", "y")), check_vma=False))(x)
z = jax.jit(jax.shard_map(step_1d, mesh=mesh_1d, in_specs=P("x"), out_specs=P("x"), check_vma=False))(y)
jax.block_until_ready(z)
