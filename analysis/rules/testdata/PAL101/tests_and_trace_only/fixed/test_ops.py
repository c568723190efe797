import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    my_id = jax.lax.axis_index("x")
    n = jax.lax.axis_size("x")
    copy = pltpu.make_async_remote_copy(
        x_ref, o_ref, send_sem, recv_sem, device_id={"x": (my_id + 1) % n}
    )
    copy.start()
    copy.wait()


def push_kernel(x_ref, o_ref, send_sem, recv_sem):
    # A remote DMA only: Pallas lowering rejects it, tracing does not.
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": 0})
    copy.start()
    copy.wait()

import unittest


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)  # want: PAL101 "reached from test test_ring_eager"


def test_ring_eager():
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    jax.shard_map(ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(jnp.ones((8, 128)))


def push(x):
    return pl.pallas_call(push_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])(x)


def test_push_trace_only():
    jax.jit(push).trace(jnp.ones((8, 128)))


class RingTest(unittest.TestCase):
    def test_sharded(self):
        mesh = jax.make_mesh((8,), ("x",))
        jax.shard_map(ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(jnp.ones((8, 128)))  # want: PAL107 "P\('x', None\) does not match"
