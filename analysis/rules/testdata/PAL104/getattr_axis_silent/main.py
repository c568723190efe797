# Look-alikes of getattr_axis that JAX runs: the same axis name, read
# through __getattr__, inside a fully manual shard_map whose mesh has it;
# and a __getattr__ that answers (), a collective over no axis (JAX
# rejects None: "unbound axis name: None").
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

_NAMES = {"DATA": "data", "MODEL": "model"}


class _Axes:
    def __getattr__(self, name):
        return _NAMES.get(name, ())


AXES = _Axes()
mesh = Mesh(np.array(jax.devices()).reshape(2, -1), ("data", "model"))
X = jnp.ones((8, 128))


def body(x):
    return lax.psum(x, AXES.DATA) + lax.axis_index(AXES.MODEL)


jax.block_until_ready(jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("data", "model"), out_specs=P("data", "model")))(X))


def local(x):
    # AXES.UNKNOWN is () here: a psum over no axis.
    return lax.psum(x, AXES.UNKNOWN)


jax.block_until_ready(jax.jit(local)(X))
