import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

tc_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=2)
acc = pltpu.VMEM((8, 128), jnp.float32) @ tc_mesh
staging = pltpu.HBM((8, 128), jnp.float32) @ tc_mesh  # want: PAL202 "memory space HBM on a TensorCoreMesh, which takes only VMEM, SMEM, CMEM, SEMAPHORE.*Memory space hbm is not supported by mesh TensorCoreMesh\(axis_name='core', num_cores=2\)"
