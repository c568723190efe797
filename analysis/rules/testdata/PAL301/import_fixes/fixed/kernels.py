from jax.experimental.pallas import semaphore_signal  # want: PAL301 "semaphore_signal"
from jax.experimental.pallas.tpu import CompilerParams as Params  # want: PAL301 "TPUCompilerParams"
from jax.experimental.pallas.tpu import (
    VMEM,
    # want: PAL301 "semaphore_wait"
    SemaphoreType,
)
from jax.experimental.pallas import semaphore_wait


def kernel(x_ref, o_ref, sem):
    semaphore_signal(sem, 1)
    semaphore_wait(sem, 1)
    return Params(), VMEM, SemaphoreType
