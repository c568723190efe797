import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P

from pkg import kernels as K


def ring(x):
    call = pl.pallas_call(K.ring_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA])
    return call(x)  # want: PAL101 "`ring_kernel`.*reached from module top level of train"
