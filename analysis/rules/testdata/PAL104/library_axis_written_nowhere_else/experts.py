# A layer class in a module that names shard_map and collectives but not
# Pallas: its methods are library entries too. The shard_map's mesh is an
# attribute (unknown here); "tensr" is written nowhere else. The oracle's
# driver (_oracle/experts.py: mesh.py's mesh, psum of a traced value,
# check_vma on) gets AssertionError, as predicted, 0.8 to 0.12.
from functools import partial

import jax
from jax.sharding import PartitionSpec as P


class Experts:
    def __init__(self, mesh):
        self.mesh = mesh

    def __call__(self, x):
        return jax.shard_map(partial(self._forward, scale=2.0), mesh=self.mesh, in_specs=(P("model"),), out_specs=P())(x)

    def _forward(self, x, *, scale=1.0):
        return jax.lax.psum(x * scale, "tensr")  # want: warning PAL104 "`lax.psum` names axis `tensr`, which nothing else in the workspace writes.*\(library method Experts.__call__\).*AssertionError"
