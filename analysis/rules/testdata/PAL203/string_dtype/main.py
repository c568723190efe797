import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

# JAX compares the dtype with jnp.float32 and jnp.int32: a string never matches.
acc = pltpu.ACC(1)((8, 256), "float32")  # want: PAL203 "Acc ref dtype must be float32 or int32, got float32"
