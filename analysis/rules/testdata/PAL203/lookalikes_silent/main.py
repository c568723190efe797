import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

# No tpu-chip configured: the chip-dependent checks are not judged.
acc = pltpu.ACC(0)((8, 256), jnp.float32)
vmem = pltpu.VMEM((256,), jnp.bfloat16)  # not an accumulator


def make(shape, dtype):
    return pltpu.ACC(0)(shape, dtype)  # shape and dtype unknown here
