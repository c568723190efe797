import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return jax.shard_map(pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams()), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)  # want: PAL103 "spanning several devices.*cannot be automatically partitioned"


mesh = Mesh(jax.devices(), ("x",))
sharding = NamedSharding(mesh, P("x"))
jax.jit(add_one, in_shardings=sharding, out_shardings=sharding).lower(jnp.ones((8 * len(jax.devices()), 128))).compile()
