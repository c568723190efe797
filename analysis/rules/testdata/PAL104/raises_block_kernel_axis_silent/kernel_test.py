# Look-alike of raises_block_kernel_axis whose block catches the error
# JAX raises first: assertRaisesRegex(NameError, ...).
import jax
import jax.numpy as jnp
import numpy as np
from absl.testing import absltest
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x_renamed")


class RaisesTest(absltest.TestCase):

    def test_expects_name_error(self):
        mesh = Mesh(np.array(jax.devices()[:2]), ("x",))
        call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
                              compiler_params=pltpu.CompilerParams())
        run = jax.jit(jax.shard_map(call, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))
        with self.assertRaisesRegex(NameError, "unbound axis name"):
            run(jnp.ones((16, 128), jnp.float32))


if __name__ == "__main__":
    absltest.main()
