import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, sem):
    pltpu.semaphore_signal(sem, 1, device_id={"core": 1 - lax.axis_index("core")})
    pltpu.semaphore_wait(sem, 1)
    pltpu.sync_copy(x_ref, o_ref)


def step(x):
    mesh = pltpu.create_tensorcore_mesh("core", num_cores=2)
    return pl.kernel(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, scratch_shapes=[pltpu.SemaphoreType.REGULAR])(x)  # want: PAL108 "under a legacy pmap.*Cannot lower jaxpr with effects"


xs = jnp.ones((8, 8, 128), jnp.float32)
if hasattr(jax.config, "jax_pmap_shmap_merge"):  # the option is gone from 0.10.0
    jax.config.update("jax_pmap_shmap_merge", False)
out = jax.pmap(step, axis_name="x")(xs)
jax.block_until_ready(out)
