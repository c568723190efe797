from jax.experimental import pallas as pl

from kernels import SEMS, X, ring_kernel


def outer(x):
    kernel = None

    def choose():
        nonlocal kernel
        kernel = ring_kernel

    choose()
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index.*outside a fully manual"


outer(X)
