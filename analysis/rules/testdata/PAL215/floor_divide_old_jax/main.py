import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

BLOCK = pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (i, 0))


def alternate(x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[...] = x_ref[...]

    @pl.when(i // 2 == 0)  # want: PAL215 "`//` in TPU kernel `alternate` binds the sign primitive"
    def _():
        o_ref[...] = x_ref[...] * 2


x = jnp.ones((16, 128), jnp.float32)
y = pl.pallas_call(
    alternate,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(2,), in_specs=[BLOCK], out_specs=BLOCK),
)(x)
jax.block_until_ready(y)
