import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import SEMS, ring_kernel


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index.*NameError: Found an unbound axis name: x"


jax.jit(ring).trace(jnp.ones((8, 128)))
