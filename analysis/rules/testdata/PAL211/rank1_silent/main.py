import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

# Rank-1 blocks that Pallas TPU lowers.


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def equal(x):
    # equal to the array
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(1000 // 1000,),
            in_specs=[pl.BlockSpec((1000,), lambda i: (i,))],
            out_specs=pl.BlockSpec((1000,), lambda i: (i,)),
        ),
    )(x)


def chunk(x):
    # a multiple of 1024
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(6144 // 3072,),
            in_specs=[pl.BlockSpec((3072,), lambda i: (i,))],
            out_specs=pl.BlockSpec((3072,), lambda i: (i,)),
        ),
    )(x)


def power_of_two(x):
    # a multiple of 128, and a power of 2
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(4096 // 512,),
            in_specs=[pl.BlockSpec((512,), lambda i: (i,))],
            out_specs=pl.BlockSpec((512,), lambda i: (i,)),
        ),
    )(x)


def bf16(x):
    # the bfloat16 tiling size
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(4096 // 256,),
            in_specs=[pl.BlockSpec((256,), lambda i: (i,))],
            out_specs=pl.BlockSpec((256,), lambda i: (i,)),
        ),
    )(x)


def int8(x):
    # the int8 tiling size
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(8192 // 512,),
            in_specs=[pl.BlockSpec((512,), lambda i: (i,))],
            out_specs=pl.BlockSpec((512,), lambda i: (i,)),
        ),
    )(x)


def int32_string(x):
    # a dtype string
    return pl.pallas_call(
        add_one,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(4096 // 2048,),
            in_specs=[pl.BlockSpec((2048,), lambda i: (i,))],
            out_specs=pl.BlockSpec((2048,), lambda i: (i,)),
        ),
    )(x)


def bool_(x):
    # bool counts as 32 bits (JAX 0.4.35 on)
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(4096 // 256,),
            in_specs=[pl.BlockSpec((256,), lambda i: (i,))],
            out_specs=pl.BlockSpec((256,), lambda i: (i,)),
        ),
    )(x)


equal(jnp.ones((1000,), jnp.float32))
chunk(jnp.ones((6144,), jnp.float32))
power_of_two(jnp.ones((4096,), jnp.float32))
bf16(jnp.ones((4096,), jnp.bfloat16))
int8(jnp.ones((8192,), jnp.int8))
int32_string(jnp.ones((4096,), "int32"))
bool_(jnp.ones((4096,), jnp.bool_))
