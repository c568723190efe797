# A workspace test base, a helper method its subclasses call, and a mixin
# whose test method only runs through a TestCase that inherits it.
import jax
import jax.numpy as jnp
from absl.testing import absltest
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def ring_kernel(x_ref, o_ref, send_sem, recv_sem):
    me = jax.lax.axis_index("x")
    copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id={"x": me})
    copy.start()
    copy.wait()


SEMS = [pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]
X = jnp.ones((8, 128))


class RingBase(absltest.TestCase):
    def launch(self, x):
        mesh = jax.make_mesh((jax.device_count(),), ("x",))
        return jax.shard_map(pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=SEMS), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: PAL101 "outside a fully manual.*reached from test RingChecks.test_launch"


class RingMixin:
    def test_from_mixin(self):
        mesh = jax.make_mesh((jax.device_count(),), ("x",))
        jax.shard_map(pl.pallas_call(ring_kernel, out_shape=X, scratch_shapes=SEMS), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(X)  # want: PAL101 "outside a fully manual.*reached from test MixinChecks.test_from_mixin"
