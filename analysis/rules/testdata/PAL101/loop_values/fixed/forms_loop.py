import functools

import jax.numpy as jnp
from jax.experimental import pallas as pl

from kernels import SEMS, forms_kernel
import jax
from jax.sharding import PartitionSpec as P


def launch(x):
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    return jax.shard_map(pl.pallas_call(functools.partial(forms_kernel), out_shape=x, scratch_shapes=SEMS), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: PAL101 "remote signal.*outside a fully manual"


launch(jnp.ones((8, 128)))
