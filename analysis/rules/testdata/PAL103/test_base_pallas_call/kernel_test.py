# JAX's own Pallas tests call kernels through their base class:
# pallas_test_util.PallasTPUTest.pallas_call is pl.pallas_call with
# interpret=self.INTERPRET (False on the base). This test's shard_map was
# turned into a jit with shardings: Mosaic cannot partition the kernel.
import jax
import jax.numpy as jnp
import numpy as np
from absl.testing import absltest
from jax._src.pallas import pallas_test_util as ptu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


class ShardedCopyTest(ptu.PallasTPUTest):

    def test_copy_rows(self):
        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...]

        mesh = Mesh(np.array(jax.devices()), ("x",))
        rows = NamedSharding(mesh, P("x", None))

        @jax.jit
        def step(x):
            return self.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # want: warning PAL103 "kernel `kernel` is called under a jit spanning several devices \(jax.device_put\(\.\.\., NamedSharding\(mesh, …\)\)\) without shard_map \(reached from test ShardedCopyTest.test_copy_rows through `jax.jit`\).*cannot be automatically partitioned"

        step(jax.device_put(jnp.ones((64, 128)), rows))


if __name__ == "__main__":
    absltest.main()
