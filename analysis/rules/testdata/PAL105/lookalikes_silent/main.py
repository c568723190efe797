import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step_struct(x):
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=pltpu.CompilerParams())(x)


def step_array(x):
    # An array as out_shape: its type says how it varies.
    return pl.pallas_call(add_one_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


X = jnp.ones((64, 128))
mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
# check_vma off: a plain struct is fine.
jax.jit(jax.shard_map(step_struct, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X)
jax.jit(jax.shard_map(step_array, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(X)
# Not under shard_map: nothing checks vma.
jax.jit(step_struct)(X)
# check_vma not known: never an error.
CHECK = os.environ.get("PAL105_CHECK_VMA") == "1"
jax.jit(jax.shard_map(step_struct, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=CHECK))(X)
