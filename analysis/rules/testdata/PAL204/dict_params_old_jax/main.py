# Before JAX 0.6.1 the TPU params could be a dict under "mosaic", which the
# lowering read with mosaic_params.get("collective_id").
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


def step(x):
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=dict(mosaic=dict(collective_id=0)),  # want: PAL204 "never uses the barrier semaphore but its compiler params set collective_id; with JAX 0.5 this fails: .*collective_id has to be unspecified or None"
    )(x)


def barrier_step(x):
    return pl.pallas_call(
        barrier_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params={"mosaic": {"vmem_limit_bytes": 1 << 25}},  # want: PAL204 "uses the barrier semaphore .* but its compiler params set no collective_id.*collective_id has to be specified when using a custom barrier"
    )(x)


jax.block_until_ready(step(jnp.ones((64, 128))))
jax.block_until_ready(barrier_step(jnp.ones((64, 128))))
