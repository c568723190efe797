import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import mosaic_gpu as plgpu
from jax.experimental.pallas import tpu as pltpu


def copy_kernel(x_ref, o_ref):
    plgpu.copy_smem_to_gmem(x_ref, o_ref)
    plgpu.wait_smem_to_gmem(0)


def run(x):
    return pl.pallas_call(
        copy_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(vmem_limit_bytes=1 << 25),  # want: PAL201 "TPU compiler params \(`pltpu.CompilerParams`\) on kernel `copy_kernel`, which its own markers make a GPU kernel"
    )(x)


if __name__ == "__main__":
    jax.block_until_ready(run(jnp.ones((8, 128))))
