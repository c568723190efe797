# No Pallas here, a shard_map and collectives: the methods run as library
# entries, and every axis name is one the workspace writes elsewhere
# ("model" in mesh.py) or the caller's.
from functools import partial

import jax
from jax.sharding import PartitionSpec as P


class Experts:
    def __init__(self, mesh, axis):
        self.mesh, self.axis = mesh, axis

    def __call__(self, x):
        return jax.shard_map(partial(self._forward, scale=2.0), mesh=self.mesh, in_specs=(P("model"),), out_specs=P())(x)

    def _forward(self, x, *, scale=1.0):
        y = jax.lax.psum(x * scale, "model")
        return jax.lax.pmax(y, self.axis)
