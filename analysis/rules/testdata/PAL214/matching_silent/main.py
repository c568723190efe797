import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(factor, x_ref, o_ref, *, offset):
    o_ref[...] = x_ref[...] * factor + offset


def add_all(*refs):
    *ins, o_ref = refs
    o_ref[...] = ins[0][...] + ins[1][...]


def with_default(x_ref, o_ref, extra=None):
    o_ref[...] = x_ref[...]


def add_pair(pair, o_ref):
    a_ref, b_ref = pair
    o_ref[...] = a_ref[...] + b_ref[...]


def scaled(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[0]


x = jnp.ones((256, 512), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
pl.pallas_call(functools.partial(scale, 2.0, offset=1.0), out_shape=shape)(x)
pl.pallas_call(add_all, out_shape=shape)(x, x)
pl.pallas_call(with_default, out_shape=shape)(x)
# A pytree operand is one argument: the tuple of its refs.
pl.pallas_call(add_pair, out_shape=shape)((x, x))
spec = pl.BlockSpec(block_shape=(128, 512), index_map=lambda i, s_ref: (i, 0))
pl.pallas_call(
    scaled,
    out_shape=shape,
    grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=1, grid=(2,), in_specs=[spec], out_specs=spec),
)(jnp.ones((1,), jnp.int32), x)
