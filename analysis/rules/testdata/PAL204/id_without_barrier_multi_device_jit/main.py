# The custom call's configuration (collective_id) is checked before the
# partitioning error of a jit over several devices: PAL204's error is the
# one JAX raises, and PAL103 names it as the first.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def step(x):
    return pl.pallas_call(  # want: PAL103 "first, on the compiler params' collective_id: PAL204.*collective_id has to be unspecified or None"
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(collective_id=3),  # want: PAL204 "never uses the barrier semaphore but its compiler params set collective_id.*collective_id has to be unspecified or None"
    )(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
sharded = NamedSharding(mesh, P("x"))
out = jax.jit(step, in_shardings=sharded, out_shardings=sharded)(jnp.ones((64, 128)))
jax.block_until_ready(out)
