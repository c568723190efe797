# A test that expects the kernel to fail while it runs (JaxRuntimeError)
# meets a trace error first: the kernel asks axis_index of an axis the
# shard_map's mesh does not have (JAX's interpret-mode test, its axis
# renamed), and the NameError escapes the block.
import jax
import jax.numpy as jnp
import numpy as np
from absl.testing import absltest
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x_renamed")  # want: PAL104 "`lax.axis_index` in kernel `kernel` names axis `x_renamed`, which the mesh of the shard_map around the call does not have \(mesh axes: x\).*NameError: Found an unbound axis name: x_renamed"


class RaisesTest(absltest.TestCase):

    def test_expects_runtime_error(self):
        mesh = Mesh(np.array(jax.devices()[:2]), ("x",))
        call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
                              compiler_params=pltpu.CompilerParams())
        run = jax.jit(jax.shard_map(call, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))
        with self.assertRaises(jax.errors.JaxRuntimeError):
            run(jnp.ones((16, 128), jnp.float32))


if __name__ == "__main__":
    absltest.main()
