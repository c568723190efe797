# Keywords given through functools.partial are the wrapped callee's: from
# 0.10.1 pl.kernel takes out_type= and scratch_types=, and the old names
# are a TypeError when the partial is called.
import functools
from functools import partial

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core")


@functools.partial(pl.kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=mesh)  # want: PAL301 "keyword `out_shape=` of `pl.kernel` does not exist in JAX 0.10.2: pl.kernel\(out_shape=\) became out_type="
def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


@partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=mesh, scratch_shapes=[pltpu.SemaphoreType.REGULAR])  # want: PAL301 "keyword `scratch_shapes=` of `pl.kernel`"
def signal(x_ref, o_ref, sem):
    o_ref[...] = x_ref[...]


def local_partial(f, **kw):  # a partial of the project's own, not functools'
    return f


@local_partial(pl.kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))
def untouched(x_ref, o_ref):
    o_ref[...] = x_ref[...]
