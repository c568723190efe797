import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK = pl.BlockSpec(block_shape=(8, 128), index_map=lambda i: (i, 0))


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


x = jnp.ones((16, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
# A grid with a BlockSpec for every operand and output.
y = pl.pallas_call(add_one, out_shape=shape, grid=(2,), in_specs=[BLOCK], out_specs=BLOCK)(x)
# No grid: whole arrays, no BlockSpecs needed.
z = pl.pallas_call(add_one, out_shape=shape)(x)
jax.block_until_ready((y, z))
