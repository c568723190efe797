# Collectives whose names something binds, or whose failure is expected:
# nothing to report.
import unittest

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)

X = jnp.ones((64, 128), jnp.float32)
mesh = Mesh(np.array(jax.devices()), ("x",))


def body(x):
    return lax.psum(x, "x") + lax.axis_index("x")


# Bound by the shard_map, which makes "x" manual.
jax.block_until_ready(jax.jit(shard_map(body, mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False))(X))

# Bound by vmap's axis_name, and by pmap's.
jax.block_until_ready(jax.vmap(lambda v: lax.psum(v, "i"), axis_name="i")(jnp.ones((4, 8))))
jax.block_until_ready(jax.pmap(lambda v: lax.pmean(v, "p"), axis_name="p")(jnp.ones((len(jax.devices()), 4))))


def library_helper(x):
    # No caller here: its callers decide what binds "x".
    return lax.pmax(x, "x")


# The failure is the point of this code.
with unittest.TestCase().assertRaises(NameError):
    jax.jit(lambda x: lax.psum(x, "z"))(X)


def probe(x):
    # Probing whether "x" is bound, the way library code does: the
    # NameError is caught.
    try:
        n = lax.psum(1, "x")
    except NameError:
        return x
    return x * n


jax.block_until_ready(jax.jit(probe)(X))
