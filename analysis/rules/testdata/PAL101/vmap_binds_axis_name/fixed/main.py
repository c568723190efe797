# vmap's axis_name binds "x", so the kernel's lax.axis_index("x") traces;
# the kernel still communicates with no shard_map around it, and Pallas
# lowering rejects it.
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x").astype(jnp.float32)


def step(x):
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    return jax.shard_map(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype)), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: PAL101 "ValueError: Cannot use communication in pallas_call without shard_map."


X = jnp.ones((8, 8, 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.vmap(step, axis_name="x"))(X))
