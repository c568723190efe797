# A JAX wrapper pallas-ls does not model, given a mesh and shard_map's
# specs: jax.experimental.roofline.roofline runs its function under a
# shard_map of its own, so the psum inside is bound. The module names
# NamedSharding and a collective, so it runs as an entry; a wrapper that
# takes mesh=/in_specs=/out_specs= leaves the context unknown (JAX's own
# tests/roofline_test.py is written this way). JAX runs it clean where
# roofline exists (0.4.38 on).
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import roofline
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2,), ("x",))
x = jax.device_put(jnp.ones((8, 128)), NamedSharding(mesh, P("x")))


@partial(roofline.roofline, mesh=mesh, in_specs=P("x"), out_specs=P())
def total(a):
    return lax.psum(a, "x")


total(x)
