# A psum under jax.jit with no shard_map around it: the name "x" is bound
# by nothing, so tracing fails before any kernel or partitioning question.
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)


def step(x):
    return lax.psum(x, "x")  # want: PAL104 "`lax.psum` names axis `x`, outside any shard_map, pmap or vmap that binds it .*; with JAX [0-9.]+ this fails: NameError: Found an unbound axis name: x. To fix this, please call psum under `jax.shard_map`."


X = jnp.ones((64, 128), jnp.float32)
jax.block_until_ready(jax.jit(step)(X))
