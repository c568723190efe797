import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

ACC_SHAPE = (256,)
acc = pltpu.ACC(0)(ACC_SHAPE, jnp.float32)  # want: PAL203 "Acc ref must be at least 2D, got shape \(256,\)"
