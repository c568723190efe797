# The dict form of the TPU params, used right: no collective_id (or None)
# without a barrier, an id with one.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def barrier_kernel(x_ref, o_ref):
    sem = pltpu.get_barrier_semaphore()
    pltpu.semaphore_signal(sem, 1)
    pltpu.semaphore_wait(sem, 1)
    o_ref[...] = x_ref[...]


def plain(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=dict(mosaic=dict(vmem_limit_bytes=1 << 25)))(x)


def none_id(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=dict(mosaic=dict(collective_id=None)))(x)


def barrier(x):
    return pl.pallas_call(barrier_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params={"mosaic": {"collective_id": 1}})(x)


x = jnp.ones((64, 128))
for f in (plain, none_id, barrier):
    jax.block_until_ready(f(x))
