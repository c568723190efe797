# A launcher that places its input in HBM with jax.new_ref, meant to run
# under jax.jit, is called directly: eagerly, JAX only makes refs in the
# default memory.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401
from jax.experimental.pallas import tpu as pltpu


def run(x):
    x_ref = jax.new_ref(x, memory_space=pltpu.HBM)  # want: PAL217 "`jax.new_ref` with a memory space runs eagerly, outside any jit.*NotImplementedError: array ref with memory space only works inside of a `jit`\."
    return jax.freeze(x_ref)


print(run(jnp.ones((8, 128), jnp.float32)))
