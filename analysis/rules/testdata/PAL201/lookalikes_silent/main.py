import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def copy_kernel(x_ref, o_ref, sem):
    copy = pltpu.make_async_copy(x_ref, o_ref, sem)
    copy.start()
    copy.wait()


def add_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def tpu_params(x):
    return pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.SemaphoreType.DMA],
                          compiler_params=pltpu.CompilerParams(vmem_limit_bytes=1 << 25))(x)


def no_params(x):
    return pl.pallas_call(add_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), compiler_params=None)(x)


jax.block_until_ready(no_params(tpu_params(jnp.ones((8, 128)))))
