import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

mxu0 = pltpu.ACC(mxu_id=0)
acc = mxu0((8, 256), dtype=jnp.bfloat16)  # want: PAL203 "Acc ref dtype must be float32 or int32, got <class 'jax.numpy.bfloat16'>"
