# A sampler whose shard_map was turned into a jit with shardings, run by
# the program itself: the jit shards its operands over AXES.DATA, and its
# body asks axis_index of AXES.DATA, the same value. No shard_map is
# around it, so whatever axis that value names is unbound (None would be
# rejected too): JAX raises NameError.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from axes import AXES


def sample(mesh, logits, key):
    def body(logits, key):
        shard = jax.lax.axis_index(AXES.DATA)  # want: warning PAL104 "`lax.axis_index` names the axis in `AXES.DATA`, a value not known here but one that `jax.jit\(body, …\)` shards over, outside any shard_map, pmap or vmap .*so whatever axis it names is unbound \(reached from module top level of main.py through `jax.jit\(body, …\)`\); with JAX 0.11 this fails: NameError: Found an unbound axis name: \{name\}"
        return jax.random.categorical(jax.random.fold_in(key, shard), logits)

    data = NamedSharding(mesh, P(AXES.DATA))
    return jax.jit(body, in_shardings=(data, NamedSharding(mesh, P())), out_shardings=data)(logits, key)


# Mesh() gives Auto axes on every version (make_mesh gives Explicit ones
# from 0.9, where the shard_map would demand the jit's specs exactly).
mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))
jax.block_until_ready(sample(mesh, jnp.ones((8, 16)), jax.random.key(0)))
