import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

BLOCK = pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (i, 0))
STEPS = 4


def alternate(x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[...] = x_ref[...]
    label = "step %d of %d" % (STEPS % 3, STEPS // 2)  # string formatting and Python ints: no jnp.remainder, no sign
    del label

    @pl.when(lax.rem(i + 1, 2) == 0)  # lax.rem binds rem, which Mosaic lowers
    def _():
        o_ref[...] = x_ref[...] * 2

    @pl.when(i * 2 == 2)  # integer arithmetic and comparisons of integers lower
    def _():
        o_ref[...] = o_ref[...] + 1


x = jnp.ones((16, 128), jnp.float32)
y = pl.pallas_call(
    alternate,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(2,), in_specs=[BLOCK], out_specs=BLOCK),
)(x)
jax.block_until_ready(y)
z = jnp.arange(8) % 3  # outside any kernel: plain XLA
