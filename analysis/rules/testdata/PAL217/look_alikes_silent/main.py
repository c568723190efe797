# Look-alikes: a memory-space ref made under jax.jit, and eager refs in the
# default memory (no memory_space, or memory_space=None).
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401
from jax.experimental.pallas import tpu as pltpu


def run(x):
    x_ref = jax.new_ref(x, memory_space=pltpu.HBM)
    return jax.freeze(x_ref)


x = jnp.ones((8, 128), jnp.float32)
print(jax.jit(run)(x))
print(jax.freeze(jax.new_ref(x)))
print(jax.freeze(jax.new_ref(x, memory_space=None)))
