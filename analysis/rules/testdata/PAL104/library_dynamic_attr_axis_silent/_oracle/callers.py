# Oracle driver (not part of the case): calls each sampler as its callers
# would, under jax.jit with an Auto-axis mesh; sample_model_sharded inside
# a shard_map that makes "data" manual and leaves "model" automatic.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

import sampler

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
logits, key = jnp.ones((8, 16)), jax.random.key(0)
jax.block_until_ready(jax.jit(lambda l, k: sampler.sample(mesh, l, k))(logits, key))
jax.block_until_ready(jax.jit(lambda l, k: sampler.sample_declared(mesh, l, k))(logits, key))
inner = jax.shard_map(lambda l, k: sampler.sample_model_sharded(mesh, l, k), mesh=mesh,
                      in_specs=(P("data"), P()), out_specs=P("data"), axis_names={"data"})
jax.block_until_ready(jax.jit(inner)(logits, key))
