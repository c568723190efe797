# A test that patches the collective out: the real all_to_all never runs,
# so the unbound axis is never looked up (no finding), as maxtext's
# ulysses_attention_test does.
from unittest import mock

import jax.numpy as jnp

import ops


def test_exchange_calls_all_to_all():
    x = jnp.ones((8, 128))
    with mock.patch.object(ops.jax.lax, "all_to_all", return_value="out") as a2a:
        out = ops.exchange(x, "context")
    assert out == "out"
    a2a.assert_called_once()
