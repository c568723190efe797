# Oracle driver (not part of the case): calls min_free_memory eagerly and
# total inside a shard_map over "device", as callers outside the
# workspace would.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

import memory

memory.min_free_memory(1024.0)
mesh = jax.make_mesh((jax.device_count(),), ("device",), axis_types=(jax.sharding.AxisType.Auto,))
jax.jit(jax.shard_map(memory.total, mesh=mesh, in_specs=P("device"), out_specs=P()))(jnp.ones((8, 128)))
