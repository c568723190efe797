# MPMD pl.kernel bodies that only talk between the cores and subcores of
# one chip, over sub-core meshes whose axis names are given by keyword or
# by position: nothing leaves the chip, so no shard_map is needed.
import os

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc


def vector_body(x_ref, o_ref, sem):
    me = jax.lax.axis_index("subcore")
    pl.semaphore_signal(sem, 1, device_id={"core": 0, "subcore": (me + 1) % 16})
    pl.semaphore_wait(sem, 1)
    o_ref[...] = x_ref[...]


def scalar_body(x_ref, o_ref, sem):
    pl.semaphore_signal(sem, 1, device_id={"core": 1 - jax.lax.axis_index("core")})
    pl.semaphore_wait(sem, 1)


def exchange(x, subcore_axis):
    return pl.kernel(
        body=[vector_body, scalar_body],
        mesh=[plsc.VectorSubcoreMesh(core_axis_name="core", subcore_axis_name="subcore", num_cores=2), plsc.ScalarSubcoreMesh(axis_name="core", num_cores=2)],
        out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_types=[pltpu.SemaphoreType.REGULAR],
    )(x)


def unknown_subcore_name(x, subcore_axis):
    # The subcore axis name is a parameter: which ids are chip-local is not
    # known here, and unknown is never an error.
    return pl.kernel(
        body=[vector_body],
        mesh=[plsc.VectorSubcoreMesh(core_axis_name="core", subcore_axis_name=subcore_axis, num_cores=2)],
        out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),
        scratch_types=[pltpu.SemaphoreType.REGULAR],
    )(x)


@jax.jit
def step(x):
    return exchange(x, "subcore") + unknown_subcore_name(x, os.environ["SUBCORE_AXIS"])


if __name__ == "__main__":
    step(jnp.ones((8, 128)))
