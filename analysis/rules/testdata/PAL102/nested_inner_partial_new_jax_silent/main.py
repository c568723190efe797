# From JAX 0.9 Mosaic adds the enclosing shard_maps' manual axes to the
# innermost's: the nest makes every mesh axis manual, and nothing fails.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
inner = jax.shard_map(step, in_specs=P(), out_specs=P(), axis_names={"y"}, check_vma=False)
outer = jax.shard_map(inner, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}, check_vma=False)
jax.block_until_ready(jax.jit(outer)(jnp.ones((64, 128), jnp.float32)))
