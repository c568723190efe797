import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: PAL105 "without manual_axis_type="
                          compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


def inner(x):
    # The innermost shard_map decides: check_vma is on here (the default).
    return jax.shard_map(step, in_specs=P(), out_specs=P(), axis_names={"y"})(x)


jax.jit(jax.shard_map(inner, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}, check_vma=False))(jnp.ones((64, 128)))
