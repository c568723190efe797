# A test that expects one error and meets another first: the block
# catches ValueError, but the communicating kernel, under a jit with
# shardings instead of a shard_map (JAX's own vma test, mutated), raises
# NameError while tracing, which escapes the block and fails the test.
import jax
import jax.numpy as jnp
import numpy as np
from absl.testing import absltest
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x")


class RaisesTest(absltest.TestCase):

    def test_expects_value_error(self):
        mesh = Mesh(np.array(jax.devices()[:2]), ("x",))
        rows = NamedSharding(mesh, P("x"))
        f = jax.jit(lambda x: pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),  # want: PAL101 "communicating kernel `kernel`.*called outside a fully manual jax.shard_map.*NameError: Found an unbound axis name: x"
                                             compiler_params=pltpu.CompilerParams())(x),
                    in_shardings=rows, out_shardings=rows)
        with self.assertRaisesRegex(ValueError, "manual_axis_type"):
            f(jnp.ones((16, 128), jnp.float32))


if __name__ == "__main__":
    absltest.main()
