# pltpu is imported (TPU evidence), but the platform setting says GPU, and
# the setting decides for kernels without markers of their own: on GPU, XLA
# replicates the kernel under the multi-device jit and nothing fails.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu  # noqa: F401
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(local_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(jax.devices(), ("x",))
sharded = NamedSharding(mesh, P("x"))
out = jax.jit(step, in_shardings=sharded, out_shardings=sharded)(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
