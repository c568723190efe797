import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref, sem):
    me = jax.lax.axis_index("y")

    @pl.when(me == 0)
    def _():
        @pl.loop(0, 4)
        def _(i):
            pl.semaphore_signal(sem, 1, device_id={"y": i})


def run(x):
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.REGULAR])(x)  # want: PAL101 "unbound axis name: y"


run(jnp.ones((8, 128)))
