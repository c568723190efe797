# A parameterized test whose jit builds its in_shardings with a pytree
# map over spec variables (the shape of tpu-inference's
# rpa_v3_cp test once its shard_map decorator became a jit): the kernel
# runs under a jit that shards its operands over "x", which Mosaic cannot
# partition.
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
    return jax.shard_map(pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: warning PAL103 "kernel `copy_kernel` is called under a jit spanning several devices \(in_shardings with a NamedSharding\) without shard_map \(reached from test TreeMappedTest.test_heads_sharded.*cannot be automatically partitioned"
                          compiler_params=pltpu.CompilerParams()), mesh=None, in_specs=PS(), out_specs=PS(), check_vma=False)(x)


class TreeMappedTest(parameterized.TestCase):
    @parameterized.product(n=[2, 4])
    def test_heads_sharded(self, n):
        mesh = Mesh(np.array(jax.devices()[:n]), ("x",))
        hs = PS(None, "x", None)

        @partial(jax.jit,
                 in_shardings=jax.tree.map(lambda s: NamedSharding(mesh, s), (hs,),
                                           is_leaf=lambda s: isinstance(s, PS)))
        def step(q):
            return copy(q)

        step(jnp.ones((8, 8, 128)))


if __name__ == "__main__":
    absltest.main()
