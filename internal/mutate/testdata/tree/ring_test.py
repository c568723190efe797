import unittest

import jax
from jax.sharding import PartitionSpec as P

import kernels


class RingTest(unittest.TestCase):

  def test_ring(self):
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.jit(jax.shard_map(kernels.ring, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
    f(jax.numpy.zeros((8, 128)))

  def helper(self):
    return jax.shard_map(kernels.local, mesh=kernels.mesh, in_specs=P("x"), out_specs=P("x"))


def test_plain():
  mesh = jax.make_mesh((8,), ("x",))
  jax.shard_map(kernels.local, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(jax.numpy.zeros(8))
