# Two nested shard_maps make both mesh axes manual, but before JAX 0.9
# Mosaic's partitioning check reads only the innermost shard_map's own
# manual axes ({"y"}): the kernel "cannot be automatically partitioned".
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # want: PAL102 "leaves mesh axes x not manual by itself \(before JAX 0.9.*Mosaic kernels cannot be automatically partitioned"


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
inner = jax.shard_map(step, in_specs=P(), out_specs=P(), axis_names={"y"}, check_vma=False)
outer = jax.shard_map(inner, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}, check_vma=False)
jax.block_until_ready(jax.jit(outer)(jnp.ones((64, 128), jnp.float32)))
