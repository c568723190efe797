import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu


def kernel(x_ref, o_ref, sem):
    me = jax.lax.axis_index("x")
    pl.semaphore_signal(sem, 1, device_id=1 - me)


x = jnp.ones((8, 128))
pl.pallas_call(kernel, out_shape=x, compiler_params=plgpu.CompilerParams())(x)  # want: PAL214 "missing 1 required positional argument: .sem."
