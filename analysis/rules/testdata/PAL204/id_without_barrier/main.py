import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def step(x):
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(collective_id=3, vmem_limit_bytes=1 << 25),  # want: PAL204 "never uses the barrier semaphore but its compiler params set collective_id.*collective_id has to be unspecified or None"
    )(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((64, 128)))
jax.block_until_ready(out)
