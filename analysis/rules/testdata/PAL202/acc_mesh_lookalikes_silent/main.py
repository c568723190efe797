import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

tc_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=2)
acc_space = pltpu.ACC(0)  # an accumulator space on no mesh
sem = pltpu.SemaphoreType.DMA @ tc_mesh  # every mesh takes semaphores
vmem = pltpu.VMEM((8, 128), jnp.float32) @ tc_mesh
