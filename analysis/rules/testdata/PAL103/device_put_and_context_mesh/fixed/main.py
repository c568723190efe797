import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return jax.shard_map(pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams()), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)  # want: PAL103 "device_put"


def add_two(x):
    return jax.shard_map(pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams()), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)  # want: PAL103 "context mesh"


mesh = Mesh(jax.devices(), ("x",))
x = jax.device_put(jnp.ones((8, 128)), NamedSharding(mesh, P("x")))
jax.jit(add_one)(x)
with mesh:
    jax.jit(add_two)(jnp.ones((8, 128)))
