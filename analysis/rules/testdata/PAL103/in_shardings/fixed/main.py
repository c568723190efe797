import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return jax.shard_map(pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams()), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)  # want: PAL103 "spanning several devices .in_shardings with a NamedSharding.*cannot be automatically partitioned"


mesh = Mesh(jax.devices(), ("x",))
step = jax.jit(add_one, in_shardings=NamedSharding(mesh, P("x")), out_shardings=NamedSharding(mesh, P("x")))
step(jnp.ones((8, 128)))
