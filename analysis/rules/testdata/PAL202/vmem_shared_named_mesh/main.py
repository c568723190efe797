import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu


def scratch_types(num_cores):
    mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=2)
    space = pltpu.MemorySpace.VMEM_SHARED
    return [pltpu.SMEM((1,), jnp.int32) @ mesh, space @ mesh]  # want: PAL202 "memory space VMEM_SHARED on a TensorCoreMesh.*Memory space vmem_shared is not supported by mesh"


scratch_types(2)
