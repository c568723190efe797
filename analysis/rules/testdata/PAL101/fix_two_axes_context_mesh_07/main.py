import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, sem):
    pl.semaphore_signal(sem, 1, device_id={"data": 0, "model": 1})


def f(x):
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.REGULAR])(x)  # want: PAL101 "kernel"


f(jnp.ones((8, 128)))
