import jax
from jax.sharding import PartitionSpec as P

import kernels
from launch import make_input

mesh = jax.make_mesh((4,), ("x",))
out = jax.shard_map(kernels.ring, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(make_input())
