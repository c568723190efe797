import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def plain_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    # The keyword is new in JAX 0.7.2: an older JAX raises TypeError on it, which PAL204 leaves alone
    # and PAL301 names.
    params = pltpu.CompilerParams(collective_id=1, allow_collective_id_without_custom_barrier=True)  # want: PAL301 "keyword `allow_collective_id_without_custom_barrier=` of `pltpu.CompilerParams` does not exist in JAX 0.7.1 yet"
    return pl.pallas_call(plain_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=params)(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
out = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((64, 128)))
jax.block_until_ready(out)
