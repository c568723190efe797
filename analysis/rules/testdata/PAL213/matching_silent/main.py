import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def scaled(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[0]


def two_outputs(x_ref, o_ref, p_ref):
    o_ref[...] = x_ref[...] + 1
    p_ref[...] = x_ref[...] - 1


spec = pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0))


def single(x):
    # One BlockSpec for one output; a tuple of specs for a list of inputs.
    return pl.pallas_call(
        add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,), in_specs=(spec,), out_specs=spec
    )(x)


def pair(x):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return pl.pallas_call(two_outputs, out_shape=[shape, shape], grid=(2,), in_specs=[spec], out_specs=(spec, spec))(x)


def one_in_a_list(x):
    # A sequence of one spec for a sequence of one output (a list is a tuple to Pallas).
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return pl.pallas_call(add_one, out_shape=[shape], grid=(2,), in_specs=[spec], out_specs=(spec,))(x)


def list_for_tuple(x):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return pl.pallas_call(two_outputs, out_shape=(shape, shape), grid=(2,), in_specs=[spec], out_specs=[spec, spec])(x)


def prefetch(s, x):
    # The scalar-prefetch operand has no spec.
    pspec = pl.BlockSpec(block_shape=(128, 512), index_map=lambda i, s_ref: (i, 0))
    return pl.pallas_call(
        scaled,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=1, grid=(2,), in_specs=[pspec], out_specs=pspec),
    )(s, x)


def star(*xs):
    # Operands not known one by one: never a verdict.
    return pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(xs[0].shape, xs[0].dtype), grid=(2,), in_specs=[spec], out_specs=spec)(*xs)


x = jnp.ones((256, 512), jnp.float32)
single(x)
pair(x)
one_in_a_list(x)
list_for_tuple(x)
prefetch(jnp.ones((1,), jnp.int32), x)
star(x)
