# Axis names read through a class's __getattr__, which Python calls for
# an attribute neither the object nor its class holds: AXES.DATA is
# "data" and getattr(AXES, "MODEL") "model", from a table, and under a
# plain jax.jit nothing binds them (JAX stops at the first).
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)

_NAMES = {"DATA": "data", "MODEL": "model"}


class _Axes:
    def __getattr__(self, name):
        return _NAMES[name]


AXES = _Axes()
X = jnp.ones((8, 128))


def total(x):
    rows = lax.psum(x, AXES.DATA)  # want: PAL104 "`lax.psum` names axis `data`, outside any shard_map, pmap or vmap that binds it .*NameError: .*unbound axis name: data"
    return rows + lax.psum(x, getattr(AXES, "MODEL"))  # want: PAL104 "`lax.psum` names axis `model`, outside any shard_map"


jax.block_until_ready(jax.jit(total)(X))
