import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)  # want: PAL105 "jax.ShapeDtypeStruct without manual_axis_type= and is traced inside a shard_map with check_vma on.*manual_axis_type. on .jax.ShapeDtypeStruct. must not be .None."
    return pl.pallas_call(add_one_kernel, out_shape=out, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
# check_vma is True by default: the output struct must say how it varies.
f = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
f(jnp.ones((64, 128)))
