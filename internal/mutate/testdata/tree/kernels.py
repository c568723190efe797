"""A small project for the mutation harness's tests (not run)."""
import functools

import jax
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P

AXIS = "x"


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = lax.axis_index(AXIS)
    right = lax.rem(me + 1, lax.axis_size("x"))
    pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem, device_id={"x": right, "y": 0},
    ).start()


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


def local(x):
    return x + 1


mesh = jax.make_mesh((2, 4), ("x", "y"))

ring_all = jax.jit(
    jax.shard_map(
        ring, mesh=mesh, in_specs=P("x"), out_specs=(P("x"), P(None, "y")),
    )
)


@jax.jit
@functools.partial(jax.shard_map, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y"))
def step(x):
    return lax.psum(ring(x), "y")


local_all = jax.shard_map(local, mesh=mesh, in_specs=P("x"), out_specs=P("x"))


def local_kernel(x):
    return pl.pallas_call(lambda x_ref, o_ref: None, out_shape=x)(x)


replicated = jax.shard_map(local_kernel, mesh=mesh, in_specs=P(), out_specs=P())
