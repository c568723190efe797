# The same test without the patch: all_to_all runs eagerly over an axis
# nothing binds.
from unittest import mock

import jax.numpy as jnp

import ops


def test_exchange_calls_all_to_all():
    x = jnp.ones((8, 128))
    with mock.patch.object(ops.jax.numpy, "zeros", return_value="out"):
        out = ops.exchange(x, "context")
    assert out is not None
