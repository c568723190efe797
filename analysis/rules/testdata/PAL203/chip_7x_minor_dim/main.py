import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

ok = pltpu.ACC(1)((16, 256), jnp.int32)
acc = pltpu.ACC(0)((8, 128), jnp.float32)  # want: PAL203 "The minor dimension size of an accumulator ref must be 256 but got 128"
