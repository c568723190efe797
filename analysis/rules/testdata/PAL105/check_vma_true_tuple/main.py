import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def two_kernel(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...] + 1
    b_ref[...] = x_ref[...] * 2


def step(x):
    outs = (
        x,  # an array: its type says how it varies
        jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: PAL105 "jax.ShapeDtypeStruct without manual_axis_type= and is traced inside a shard_map with check_vma on.*manual_axis_type. on .jax.ShapeDtypeStruct. must not be .None."
    )
    return pl.pallas_call(two_kernel, out_shape=outs, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
f = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=(P("x"), P("x")), check_vma=True))
f(jnp.ones((64, 128)))
