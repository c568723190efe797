# Look-alikes of tree_mapped_shardings that must stay silent: the
# tree-mapped shardings lie on a one-device mesh, or the jit's body runs
# the kernel inside a shard_map over the same specs.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from absl.testing import absltest, parameterized
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as PS


def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def copy(x):
    return pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=pltpu.CompilerParams())(x)


class TreeMappedTest(parameterized.TestCase):
    def test_one_device(self):
        mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
        hs = PS(None, "x", None)

        @partial(jax.jit, in_shardings=jax.tree.map(lambda s: NamedSharding(mesh, s), (hs,),
                                                    is_leaf=lambda s: isinstance(s, PS)))
        def step(q):
            return copy(q)

        step(jnp.ones((8, 8, 128)))

    @parameterized.product(n=[2, 4])
    def test_shard_mapped(self, n):
        mesh = Mesh(np.array(jax.devices()[:n]), ("x",))
        hs = PS(None, "x", None)
        specs = jax.tree.map(lambda s: s, (hs,), is_leaf=lambda s: isinstance(s, PS))

        @partial(jax.jit, in_shardings=jax.tree.map(lambda s: NamedSharding(mesh, s), specs,
                                                    is_leaf=lambda s: isinstance(s, PS)))
        def step(q):
            return jax.shard_map(copy, mesh=mesh, in_specs=specs, out_specs=hs, check_vma=False)(q)

        step(jnp.ones((8, 8, 128)))


if __name__ == "__main__":
    absltest.main()
