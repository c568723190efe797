# Oracle driver (not part of the case): calls reduce_scatter as a caller outside the
# workspace would, inside a fully manual shard_map over mesh.py's mesh.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import functools

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

import mesh as mesh_mod

import layers

mesh = mesh_mod.make_mesh()
jax.jit(jax.shard_map(layers.reduce_scatter, mesh=mesh, in_specs=P(None, "model"), out_specs=P(None, "model")))(jnp.ones((8, 128 * 8)))
