# Tracing does not partition: the Mosaic custom call is never lowered.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(jax.devices(), ("x",))
sharding = NamedSharding(mesh, P("x"))
step = jax.jit(add_one, in_shardings=sharding, out_shardings=sharding)
step.trace(jnp.ones((8 * len(jax.devices()), 128)))
step.eval_shape(jnp.ones((8 * len(jax.devices()), 128)))
