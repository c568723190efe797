# Under vmap the function sees one example, so an out_shape taken from
# its operand (out_shape=x) has the example's shape (1, 128), not the
# batch's (2, 1, 128): the (1, 128) blocks match it (JAX's own named-grid
# vmap test).
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def double(x_ref, y_ref):
    y_ref[...] = x_ref[...] * 2


def per_example(x):
    return pl.pallas_call(
        double,
        out_shape=x,
        in_specs=[pl.BlockSpec((1, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((1, 128), lambda i: (i, 0)),
        grid=(1,),
    )(x)


jax.block_until_ready(jax.vmap(per_example)(jnp.ones((2, 1, 128))))
