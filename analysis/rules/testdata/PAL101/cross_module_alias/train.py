import jax.numpy as jnp

from pkg import ring_all_reduce


def train_step(x):
    return ring_all_reduce(x)


train_step(jnp.ones((8, 128)))
