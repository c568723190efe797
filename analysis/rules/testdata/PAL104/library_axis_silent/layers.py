# Library code (no caller in the workspace) whose axis names a caller or
# the workspace itself may bind: each name is written elsewhere (mesh.py's
# mesh, a vmap, the core mesh, a constant), comes from a parameter, or is
# probed under `except NameError`. PAL104 warns only about a literal name
# the workspace writes nowhere else (library_axis_written_nowhere_else).
# The oracle's driver (_oracle/callers.py) calls them as callers outside
# the workspace would, with meshes that have the names: JAX runs them
# all, 0.8 to 0.12.
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P

from config import EXPERT_AXIS

core_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=1)


def all_reduce(x):
    return lax.psum(x, "model")  # mesh.py's mesh has it


def all_reduce_on(x, axis_name):
    return lax.psum(x, axis_name)  # the caller's name


def expert_index():
    return lax.axis_index(EXPERT_AXIS)  # a constant written in config.py


def batch_sum(x):
    return jax.vmap(lambda y: lax.psum(y, "batch"), axis_name="batch")(x)


def sharded_mean(mesh, x):
    @functools.partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P())
    def body(y):
        return lax.pmean(y, "data")

    return body(x)


def probe():
    try:
        return lax.axis_size("probe_axis")
    except NameError:
        return 1


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def offset_kernel(x_ref, o_ref):
    i = lax.axis_index("core")
    o_ref[...] = x_ref[...] + i.astype(jnp.float32)


def offset(x):
    return offset_kernel(x)
