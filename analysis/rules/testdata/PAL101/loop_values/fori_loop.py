import functools

import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import SEMS, fori_kernel


def launch(x):
    return pl.pallas_call(functools.partial(fori_kernel), out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "remote signal.*outside a fully manual"


launch(jnp.ones((8, 128)))
