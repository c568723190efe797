# Oracle driver (not part of the case): calls the library functions as
# callers outside the workspace would: inside a fully manual shard_map
# over mesh.py's mesh (or, for expert_index and the Experts layer, over a
# mesh with an "expert" axis), under jax.jit, or eagerly. JAX runs them
# all.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

import experts
import layers
import mesh as mesh_mod

mesh = mesh_mod.make_mesh()
x = jnp.ones((8, 128))
manual = lambda f: jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False))(x)
manual(layers.all_reduce)
manual(lambda y: layers.all_reduce_on(y, "model"))
expert_mesh = Mesh(np.array(jax.devices()).reshape(1, -1), ("model", "expert"))
jax.jit(jax.shard_map(lambda y: y + layers.expert_index(), mesh=expert_mesh, in_specs=P(), out_specs=P(), check_vma=False))(x)
layers.batch_sum(x)
jax.jit(lambda y: layers.sharded_mean(mesh, y))(x)
layers.probe()
jax.jit(experts.Experts(expert_mesh, "expert"))(x)
