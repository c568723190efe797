from jax.experimental.pallas import tpu as pltpu
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref, sem):
    pl.semaphore_signal(sem, 1)  # want: PAL301 "`pltpu.semaphore_signal` does not exist in JAX 0.11"
    pl.semaphore_wait(sem, 1)  # want: PAL301 "semaphore_wait"
