import jax
import jax.numpy as jnp

import kernels
import tiles  # noqa: F401

out = kernels.step(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
