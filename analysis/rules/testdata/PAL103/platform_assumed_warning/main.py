# Nothing in this project names a platform. TPU is assumed: PAL103 is a
# warning anyway, and its message says the failure is on TPU.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(local_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)  # want: warning PAL103 "on TPU \(assumed: no platform evidence\), with JAX [0-9.]+ this fails: NotImplementedError: Mosaic kernels cannot"


mesh = Mesh(jax.devices(), ("x",))
sharded = NamedSharding(mesh, P("x"))
out = jax.jit(step, in_shardings=sharded, out_shardings=sharded)(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
