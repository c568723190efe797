import jax.numpy as jnp

x = jnp.ones(3)  # pallas-ls: ignore[PAL101]  # want: PAL901 "unused suppression: no PAL101 finding"
# pallas-ls: ignore[PAL103] -- kept for the sharded variant
y = jnp.zeros(3)  # want-1: PAL901 "no PAL103"
