from jax.experimental.pallas import tpu as pltpu

VMEM = pltpu.VMEM
