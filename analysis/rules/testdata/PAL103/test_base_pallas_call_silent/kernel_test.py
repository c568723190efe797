# Look-alikes of test_base_pallas_call that run: the interpret-mode copy
# of the test class (INTERPRET = True: self.pallas_call interprets the
# kernel, which XLA partitions like any other computation), a test that
# skips before it runs anything, and a call under assertRaises, whose
# failure the test expects.
import jax
import jax.numpy as jnp
import numpy as np
from absl.testing import absltest
from jax._src.pallas import pallas_test_util as ptu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def rows_of(x):
    return jax.device_put(x, NamedSharding(Mesh(np.array(jax.devices()), ("x",)), P("x", None)))


class InterpretCopyTest(ptu.PallasTPUTest):
    INTERPRET = True

    def test_copy_rows(self):
        step = jax.jit(lambda x: self.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x))
        step(rows_of(jnp.ones((64, 128))))


class SkippedCopyTest(ptu.PallasTPUTest):

    def test_not_supported(self):
        self.skipTest("Not supported.")
        step = jax.jit(lambda x: self.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x))
        step(rows_of(jnp.ones((64, 128))))

    def test_expected_failure(self):
        step = jax.jit(lambda x: self.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x))
        with self.assertRaisesRegex(NotImplementedError, "cannot be automatically partitioned"):
            step(rows_of(jnp.ones((64, 128))))


if __name__ == "__main__":
    absltest.main()
