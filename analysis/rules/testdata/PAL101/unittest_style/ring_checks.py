# Not named like a test file: absltest.main() under __main__ runs it.
from absl.testing import absltest
from jax.experimental import pallas as pl

from helpers import SEMS, X, RingBase, RingMixin, ring_kernel


class RingChecks(RingBase):
    def test_launch(self):
        self.launch(X)


class MixinChecks(RingMixin, absltest.TestCase):
    pass


class SetUpClassChecks(absltest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.expected = pl.pallas_call(ring_kernel, out_shape=X, scratch_shapes=SEMS)(X)  # want: PAL101 "outside a fully manual.*reached from test SetUpClassChecks.test_expected"

    def test_expected(self):
        self.assertIsNotNone(self.expected)


class RingTool:
    # Not a TestCase: unittest never runs its methods, so only a hint.
    def test_like(self):
        return pl.pallas_call(ring_kernel, out_shape=X, scratch_shapes=SEMS)(X)  # want: info PAL101 "callers must run this inside jax.shard_map.*library method RingTool.test_like"


if __name__ == "__main__":
    absltest.main()
