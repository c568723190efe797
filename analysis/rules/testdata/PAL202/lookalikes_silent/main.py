import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

tc_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=2)
scratch = [
    pltpu.VMEM((8, 128), jnp.float32) @ tc_mesh,
    pltpu.SMEM((4,), jnp.int32) @ tc_mesh,
    pltpu.SEMAPHORE @ tc_mesh,
    pltpu.SemaphoreType.DMA @ tc_mesh,
]
hbm = pltpu.HBM((8, 128), jnp.float32)  # no mesh: fine
x = jnp.ones((8, 128))
y = x @ x.T  # a matmul, not a memory space


def f(mesh):
    # A parameter: which mesh it is, is not known here.
    return pltpu.HBM((8, 128), jnp.float32) @ mesh
