from jax.experimental import pallas as pl

from kernels import SEMS, X, ring_kernel


def launch(x, kernel=None):
    if kernel is None:
        kernel = ring_kernel
    elif not callable(kernel):
        raise TypeError("not a kernel")
    return pl.pallas_call(kernel, out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "lax.axis_index.*outside a fully manual"


launch(X)
