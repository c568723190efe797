# An axis picked from the environment: "data" or ("data", "model"), as a
# constant or through a lazily initialised __getattr__. Which one is not
# known here, but each names an axis, and under a plain jax.jit nothing
# binds either.
import os

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)

BATCH_AXES = ("data", "model") if os.environ.get("SPLIT_BATCH") else "data"


class _Flat:
    DATA = "data"


class _Split:
    DATA = ("data", "model")


class _LazyAxes:
    # Picks its class of axis names on first use (tpu-inference's
    # LazyShardingAxisName): `self._cls` is None or a class, and an
    # attribute of None would raise, so LAZY.DATA is one of the two.
    def __init__(self):
        self._cls = None

    def __getattr__(self, name):
        if self._cls is None:
            self._cls = _Split if os.environ.get("SPLIT_AXES") else _Flat
        return getattr(self._cls, name)


LAZY = _LazyAxes()


def shard_id(x):
    return x + lax.axis_index(BATCH_AXES)  # want: warning PAL104 "`lax.axis_index` names the axis in `BATCH_AXES`, a value not known here but one of several axis names the program may choose, .*so whatever axis it names is unbound .*NameError: .*unbound axis name"


def lazy_shard_id(x):
    return x + lax.axis_index(LAZY.DATA)  # want: warning PAL104 "`lax.axis_index` names the axis in `LAZY.DATA`, a value not known here but one of several axis names the program may choose"


jax.block_until_ready(jax.jit(shard_id)(jnp.ones((8, 128))))
# Not reached: the line above raises first.
jax.block_until_ready(jax.jit(lazy_shard_id)(jnp.ones((8, 128))))
