import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)  # want: PAL103 "device_put"


def add_two(x):
    # A bare `with mesh:` puts the jit below on one device: JAX runs it (oracle:
    # oracle/cases/gen/local-direct-ctx_with-call-*), so nothing is reported.
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)


mesh = Mesh(jax.devices(), ("x",))
x = jax.device_put(jnp.ones((8, 128)), NamedSharding(mesh, P("x")))
jax.jit(add_one)(x)
with mesh:
    jax.jit(add_two)(jnp.ones((8, 128)))
