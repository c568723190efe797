import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu


def accumulators():
    # JAX 0.11.0 has no pltpu.ACC (added in 0.11.2): PAL203 has nothing to check, PAL301 names the missing API.
    return pltpu.ACC(0)((256,), jnp.float32)  # want: PAL301 "`pltpu.ACC` does not exist in JAX 0.11 yet: it was added in 0.11.2"
