# A library sampler whose shard_map was turned into a jit with shardings:
# it shards its operands over AXES.DATA and then asks axis_index of
# AXES.DATA, one value whatever it holds. JAX refuses that sharding inside
# a shard_map that makes the axis manual, so no caller can bind it, and
# the axis_index fails wherever the function runs. The oracle calls it
# under jax.jit over the workspace's mesh (_oracle/sample.py): NameError.
import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from axes import AXES


def sample(mesh, logits, key):
    def body(logits, key):
        shard = jax.lax.axis_index(AXES.DATA)  # want: warning PAL104 "`lax.axis_index` names the axis in `AXES.DATA`, which cannot be manual here: `jax.jit\(body, …\)` shards over the axis in `AXES.DATA` at sampler.py:\d+, which JAX refuses inside a shard_map that makes it manual, so no shard_map binds it \(library function sample\); with JAX 0.11 this fails: NameError: Found an unbound axis name: \{name\}"
        return jax.random.categorical(jax.random.fold_in(key, shard), logits)

    data = NamedSharding(mesh, P(AXES.DATA))
    return jax.jit(body, in_shardings=(data, NamedSharding(mesh, P())), out_shardings=data)(logits, key)
