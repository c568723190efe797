import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


# Up to JAX 0.9.1 a rank-1 block must be a multiple of the tiling size
# (256 for bfloat16); 0.9.2 also takes powers of 2, but 384 is none.
x = jnp.ones((3072,), jnp.bfloat16)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(3072 // 384,),
        in_specs=[pl.BlockSpec(block_shape=(384,), index_map=lambda i: (i,))],  # want: PAL211 "or 2\) the first \(and only\) dimension of the block shape is a multiple of the tiling size \(256 = 128 \* \(32 // 16\)\) of the array shape\."
        out_specs=pl.BlockSpec(block_shape=(384,), index_map=lambda i: (i,)),  # want: PAL211 "output 0"
    ),
)(x)
