import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, scratch_ref):
    scratch_ref[...] = x_ref[...]
    o_ref[...] = scratch_ref[...]


def copy(x):
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_shapes=[pltpu.VMEM(x.shape, x.dtype)],  # want: PAL301 "keyword `scratch_shapes=` of `pl.pallas_call` does not exist in JAX 0.4.33 yet"
    )(x)


def copy_portable(x):
    # The grid spec takes scratch_shapes on every version.
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, scratch_shapes=[pltpu.VMEM(x.shape, x.dtype)]),
    )(x)


print(copy_portable(jnp.ones((8, 128))))
print(copy(jnp.ones((8, 128))))
