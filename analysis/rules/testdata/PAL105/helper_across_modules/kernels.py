import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def out_like(x):
    return jax.ShapeDtypeStruct(x.shape, x.dtype)  # want: PAL105 "jax.ShapeDtypeStruct without manual_axis_type= and is traced inside a shard_map with check_vma on.*manual_axis_type. on .jax.ShapeDtypeStruct. must not be .None."


def add_one(x):
    return pl.pallas_call(add_one_kernel, out_shape=out_like(x), compiler_params=pltpu.CompilerParams())(x)
