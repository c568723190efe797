import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def per_example(x):
    # Under vmap the kernel sees (256, 512) blocks of the (4, 256, 512) batch.
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct((256, 512), jnp.float32),
        grid=(2,),
        in_specs=[pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0))],
        out_specs=pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0)),
    )(x)


jax.vmap(per_example)(jnp.ones((4, 256, 512), jnp.float32))
