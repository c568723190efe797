from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, sem):
    pltpu.semaphore_signal(sem, 1)
    pltpu.semaphore_wait(sem, 1)
