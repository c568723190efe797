import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu


def accumulators():
    # JAX 0.11 has no pltpu.ACC: nothing to check (the call fails, as any missing API does).
    return pltpu.ACC(0)((256,), jnp.float32)
