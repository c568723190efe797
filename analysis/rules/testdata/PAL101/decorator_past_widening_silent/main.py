import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P

from scopes import named


@named
def scale0(x):
    return x * 1


@named
def scale1(x):
    return x * 2


@named
def scale2(x):
    return x * 3


@named
def scale3(x):
    return x * 4


@named
def scale4(x):
    return x * 5


@named
def scale5(x):
    return x * 6


@named
def scale6(x):
    return x * 7


@named
def scale7(x):
    return x * 8


@named
def scale8(x):
    return x * 9


@named
def scale9(x):
    return x * 10


@named
def scale10(x):
    return x * 11


@named
def scale11(x):
    return x * 12


@named
def scale12(x):
    return x * 13


@named
def scale13(x):
    return x * 14


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem, device_id={"x": (me + 1) % jax.lax.axis_size("x")}
    )
    copy.start()
    copy.wait()


@named
def ring(x):
    return pl.pallas_call(
        ring_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
    )(x)


@named
def step(x):
    # The decorated kernel call runs inside a fully manual shard_map.
    mesh = Mesh(np.array(jax.devices()), ("x",))
    return jax.shard_map(ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(scale13(x))


jax.jit(step)(jnp.ones((8, 128)))
