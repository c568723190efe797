import jax.numpy as jnp

x = jnp.ones(3)  # want: PAL901 "unused suppression: no PAL101 finding"
y = jnp.zeros(3)  # want-1: PAL901 "no PAL103"
