import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu_sc as plsc  # want: PAL301 "module `pl.tpu_sc` does not exist in JAX 0.6.2 yet: it was added in 0.7.2"


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


# Names inside the missing module are not reported again: its import fails first.
mesh = plsc.VectorSubcoreMesh(core_axis_name="core", subcore_axis_name="subcore", num_cores=1)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))(jnp.ones((8, 128))))
