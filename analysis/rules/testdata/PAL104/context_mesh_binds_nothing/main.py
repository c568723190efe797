# A context mesh binds no axis names for collectives: all_gather under
# `with mesh:` still names an unbound axis.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)


def gather(x):
    return lax.all_gather(x, "x", tiled=True)  # want: PAL104 "`lax.all_gather` names axis `x`.*NameError: unbound axis name: x"


mesh = Mesh(np.array(jax.devices()), ("x",))
with mesh:
    jax.block_until_ready(jax.jit(gather)(jnp.ones((64, 128), jnp.float32)))
