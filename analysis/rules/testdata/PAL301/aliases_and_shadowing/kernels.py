import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as T


def kernel(x_ref, o_ref, sem):
    T.semaphore_signal(sem, 1, device_id=0, device_id_type=T.DeviceIdType.LOGICAL)  # want: PAL301 "semaphore_signal" PAL301 "DeviceIdType"
    params = T.TPUCompilerParams(collective_id=0)  # want: PAL301 "TPUCompilerParams"
    return params


def semaphore_signal(sem, inc):
    return sem


def mine(sem, T):
    # A parameter named like the alias shadows the import.
    T.semaphore_signal(sem, 1)
    semaphore_signal(sem, 1)
