import functools

import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import SEMS, cfg_kernel


def ring(x, cfg):
    kernel = functools.partial(cfg_kernel, cfg=cfg)
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index\(\"x\"\).*outside a fully manual"


ring(jnp.ones((8, 128)), dict(axis="x", hops=1))
