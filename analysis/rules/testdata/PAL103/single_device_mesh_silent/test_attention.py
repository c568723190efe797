import unittest

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def kernel(q_ref, o_ref):
    o_ref[...] = q_ref[...]


@jax.jit
def attention(q):
    return pl.pallas_call(kernel, out_shape=q, compiler_params=pltpu.CompilerParams())(q)


class AttentionTest(unittest.TestCase):
    def test_single_device_mesh(self):
        mesh = jax.make_mesh((1, 1), axis_names=("x", "y"), devices=[jax.devices()[0]])
        sharding = jax.sharding.NamedSharding(mesh, P(None, None))
        q = jax.device_put(jnp.ones((8, 128)), sharding)
        attention(q)

    def test_one_by_one(self):
        mesh = jax.make_mesh((1,), ("x",))
        with jax.set_mesh(mesh):
            attention(jnp.ones((8, 128)))

    def test_first_device_slice(self):
        mesh = jax.sharding.Mesh(jax.devices()[:1], ("x",))
        q = jax.device_put(jnp.ones((8, 128)), jax.sharding.NamedSharding(mesh, P("x")))
        attention(q)

    def test_numpy_device_slice(self):
        mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("x",))
        q = jax.device_put(jnp.ones((8, 128)), jax.sharding.NamedSharding(mesh, P("x")))
        attention(q)
