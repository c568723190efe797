# lax.axis_index in an index_map on JAX 0.4.30, with the kernel body also
# calling it: the body's named axis sets has_communication, so Pallas
# lowers with the device mesh and both lower.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401  (a TPU project)
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x").astype(jnp.float32)


def step(x):
    spec = pl.BlockSpec(block_shape=x.shape, index_map=lambda i: (i + lax.axis_index("x") * 0, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), in_specs=[spec], out_specs=pl.BlockSpec(block_shape=x.shape, index_map=lambda i: (i, 0)))(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(shard_map(step, mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False))(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
