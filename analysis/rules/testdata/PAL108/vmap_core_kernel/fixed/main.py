import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, sem):
    # The two TensorCores of one chip signal each other: chip-local.
    pl.semaphore_signal(sem, 1, device_id={"core": 1 - lax.axis_index("core")})
    pl.semaphore_wait(sem, 1)
    pltpu.sync_copy(x_ref, o_ref)


def step(x):
    mesh = pltpu.TensorCoreMesh("core", num_cores=2)  # want: PAL302 "create_tensorcore_mesh. is deprecated"
    return pl.kernel(kernel, out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, scratch_types=[pltpu.SemaphoreType.REGULAR])(x)  # want: PAL108 "core-mesh kernel `kernel` \(pl.kernel\) is called under jax.vmap.*Batching rule for 'run_scoped' not implemented"


xs = jnp.ones((8, 8, 128), jnp.float32)
out = jax.jit(jax.vmap(step))(xs)
jax.block_until_ready(out)
