import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu


def add_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def run(x):
    return pl.pallas_call(add_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=plgpu.CompilerParams(max_concurrent_steps=2))(x)


if __name__ == "__main__":
    jax.block_until_ready(run(jnp.ones((8, 128))))
