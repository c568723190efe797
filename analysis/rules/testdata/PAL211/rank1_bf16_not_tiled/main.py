import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


# bfloat16 packs two values in 32 bits: the rank-1 tiling size is 256, so a
# block of 128 (fine for float32) is too small.
N = 4096
BLOCK = 128
x = jnp.zeros((N,), dtype=jnp.bfloat16)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct((N,), x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(N // BLOCK,),
        in_specs=[pl.BlockSpec((BLOCK,), lambda i: (i,))],  # want: PAL211 "tiling size \(256 = 128 \* \(32 // 16\)\)"
        out_specs=pl.BlockSpec((BLOCK,), lambda i: (i,)),  # want: PAL211 "output 0 \(bfloat16\)"
    ),
)(x)
