# Look-alikes of dynamic_attr_axis_sharded that JAX runs: the jit shards
# over AXES.DATA and, inside it, a shard_map makes AXES.DATA manual before
# axis_index asks for it (sharding outside, manual inside, the usual
# layering); and a body that shards over AXES.DATA but asks no axis.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from axes import AXES


def _local(logits, key):
    shard = jax.lax.axis_index(AXES.DATA)
    return jax.random.categorical(jax.random.fold_in(key, shard), logits)


def sample(mesh, logits, key):
    def body(logits, key):
        return jax.shard_map(_local, mesh=mesh, in_specs=(P(AXES.DATA), P()), out_specs=P(AXES.DATA))(logits, key)

    data = NamedSharding(mesh, P(AXES.DATA))
    return jax.jit(body, in_shardings=(data, NamedSharding(mesh, P())), out_shardings=data)(logits, key)


def greedy(mesh, logits):
    data = NamedSharding(mesh, P(AXES.DATA))
    return jax.jit(lambda l: jnp.argmax(l, axis=-1), in_shardings=data, out_shardings=data)(logits)


# Mesh() gives Auto axes on every version (make_mesh gives Explicit ones
# from 0.9, where the shard_map would demand the jit's specs exactly).
mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))
jax.block_until_ready(sample(mesh, jnp.ones((8, 16)), jax.random.key(0)))
jax.block_until_ready(greedy(mesh, jnp.ones((8, 16))))
