import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc

mesh = plsc.VectorSubcoreMesh(core_axis_name="core", subcore_axis_name="subcore", num_cores=2)
shared = pltpu.VMEM_SHARED((16, 128), jnp.float32) @ mesh
cmem = pltpu.CMEM((16, 128), jnp.float32) @ mesh  # want: PAL202 "memory space CMEM on a VectorSubcoreMesh.*Memory space cmem is not supported by mesh"
