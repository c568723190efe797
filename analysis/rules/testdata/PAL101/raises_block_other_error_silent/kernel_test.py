# Look-alikes of raises_block_other_error whose block catches the error
# JAX raises: assertRaises(NameError), and a catch of Exception, which
# catches any.
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


def sharded_step():
    mesh = Mesh(np.array(jax.devices()[:2]), ("x",))
    rows = NamedSharding(mesh, P("x"))
    return jax.jit(lambda x: pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
                                            compiler_params=pltpu.CompilerParams())(x),
                   in_shardings=rows, out_shardings=rows)


class RaisesTest(absltest.TestCase):

    def test_expects_name_error(self):
        f = sharded_step()
        with self.assertRaisesRegex(NameError, "unbound axis name"):
            f(jnp.ones((16, 128), jnp.float32))

    def test_expects_any_error(self):
        f = sharded_step()
        with self.assertRaises(Exception):
            f(jnp.ones((16, 128), jnp.float32))


if __name__ == "__main__":
    absltest.main()
