"""Try the ring kernel on one host: `python launch.py`."""

import jax
import jax.numpy as jnp

import kernels


def make_input(rows=8):
    return jnp.ones((rows, 128), jnp.float32)


if __name__ == "__main__":
    # A script of its own: a bare jit, no shard_map.
    print(jax.jit(kernels.ring)(make_input()))
