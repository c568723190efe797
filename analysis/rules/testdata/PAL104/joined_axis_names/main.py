# An axis picked from the environment: "data" or ("data", "model"). Which
# one is not known here, but each names an axis, and under a plain jax.jit
# nothing binds either.
import os

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)

BATCH_AXES = ("data", "model") if os.environ.get("SPLIT_BATCH") else "data"


def shard_id(x):
    return x + lax.axis_index(BATCH_AXES)  # want: warning PAL104 "`lax.axis_index` names the axis in `BATCH_AXES`, a value not known here but one of several axis names the program may choose, .*so whatever axis it names is unbound .*NameError: .*unbound axis name"


jax.block_until_ready(jax.jit(shard_id)(jnp.ones((8, 128))))
