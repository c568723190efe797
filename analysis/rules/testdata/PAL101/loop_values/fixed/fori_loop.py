import functools

import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import SEMS, fori_kernel
from jax.sharding import PartitionSpec as P
import jax


def launch(x):
    return jax.shard_map(pl.pallas_call(functools.partial(fori_kernel), out_shape=x, scratch_shapes=SEMS), mesh=None, in_specs=P(), out_specs=P(), check_vma=False)(x)  # want: PAL101 "remote signal.*outside a fully manual"


launch(jnp.ones((8, 128)))
