# The axis a kernel communicates over comes from the test's parameters:
# each parameter set runs with its literal values.
import functools

import jax
import jax.numpy as jnp
import pytest
from absl.testing import parameterized
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P

SEMS = [pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]


def ring_kernel(x_ref, o_ref, send_sem, recv_sem, *, axis):
    me = jax.lax.axis_index(axis)
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={axis: me})
    copy.start()
    copy.wait()


def ring_a(x, axis):
    return pl.pallas_call(functools.partial(ring_kernel, axis=axis), out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index\(\"x\"\).*reached from test RingTest.test_parameters"


def ring_b(x, axis):
    return pl.pallas_call(functools.partial(ring_kernel, axis=axis), out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index\(\"x\"\).*reached from test RingTest.test_named"


def ring_c(x, axis):
    return pl.pallas_call(functools.partial(ring_kernel, axis=axis), out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index\(\"x\"\).*reached from test RingTest.test_product"


def ring_d(x, axis):
    return pl.pallas_call(functools.partial(ring_kernel, axis=axis), out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index\(\"x\"\).*reached from test test_pytest_parametrize"


def ring_e(x, axis):
    return pl.pallas_call(functools.partial(ring_kernel, axis=axis), out_shape=x, scratch_shapes=SEMS)(x)


class RingTest(parameterized.TestCase):
    @parameterized.parameters(["x"])
    def test_parameters(self, axis):
        ring_a(jnp.ones((8, 128)), axis)

    @parameterized.named_parameters(("tuple_form", "x"), dict(testcase_name="dict_form", axis="x"))
    def test_named(self, axis):
        ring_b(jnp.ones((8, 128)), axis)

    @parameterized.product(axis=["x"], rows=[8, 16])
    def test_product(self, axis, rows):
        ring_c(jnp.ones((rows, 128)), axis)

    @parameterized.parameters(["x"])
    def test_sharded_silent(self, axis):
        # The look-alike: the same parameter, under a fully manual shard_map.
        mesh = Mesh(jax.devices(), (axis,))
        body = functools.partial(ring_e, axis=axis)
        n = len(jax.devices())
        jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P(axis), out_specs=P(axis), check_vma=False))(jnp.ones((8 * n, 128)))


@pytest.mark.parametrize("axis, rows", [("x", 8), pytest.param("x", 16)])
def test_pytest_parametrize(axis, rows):
    ring_d(jnp.ones((rows, 128)), axis)
