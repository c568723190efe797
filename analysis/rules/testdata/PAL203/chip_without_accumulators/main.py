import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

acc = pltpu.ACC(0)((8, 256), jnp.float32)  # want: PAL203 "on the configured chip.*Accumulators are not available on TPU v6e"
