# A core-mesh kernel that asks the size of a tuple of axes, its core axis
# and a device axis "x": JAX looks the names up in order, and nothing
# binds "x" outside a shard_map, so tracing the kernel fails on it. (The
# same tuple of core axes alone is fine: kernel_axis_size_tuple_silent.)
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

core_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=1)


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * lax.axis_size(("x", "core"))


jax.block_until_ready(jax.jit(kernel)(jnp.ones((8, 128), jnp.float32)))  # want: PAL104 "kernel `kernel` asks lax.axis_size\(\"x\"\).*NameError: unbound axis name: x"
