import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


# A rank-1 float32 block of 384: a multiple of 128 (fine up to JAX 0.9.1),
# but neither a multiple of 1024 nor a power of 2 (0.9.2 on).
x = jnp.ones((4096,), jnp.float32)
y = pl.pallas_call(
    add_one,
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        grid=(4096 // 384,),
        in_specs=[pl.BlockSpec(block_shape=(384,), index_map=lambda i: (i,))],  # want: PAL211 "rank 1 block shapes, either 1\) .* is a multiple of 1024, or 3\)"
        out_specs=pl.BlockSpec(block_shape=(384,), index_map=lambda i: (i,)),  # want: PAL211 "output 0 \(float32\)"
    ),
)(x)
