import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


# Up to JAX 0.9.1 a float32 rank-1 block needs only be a multiple of 128:
# 384 is fine there (0.9.2 rejects it: rank1_not_tiled).
x = jnp.ones((3072,), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(3072 // 384,),
        in_specs=[pl.BlockSpec(block_shape=(384,), index_map=lambda i: (i,))],
        out_specs=pl.BlockSpec(block_shape=(384,), index_map=lambda i: (i,)),
    ),
)(x)
