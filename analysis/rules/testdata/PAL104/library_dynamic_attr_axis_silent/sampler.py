# Look-alikes of library_dynamic_attr_axis that JAX runs: the sampler in
# its shard_map, which makes AXES.DATA manual; a jit that shards over
# AXES.MODEL while its body asks axis_index of AXES.DATA, another value
# (a caller's shard_map may make DATA manual and leave MODEL automatic);
# and an attribute the class itself holds, a literal. The oracle calls
# each as its callers would (_oracle/callers.py): no error.
import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from axes import AXES


def _body(logits, key):
    shard = jax.lax.axis_index(AXES.DATA)
    return jax.random.categorical(jax.random.fold_in(key, shard), logits)


def sample(mesh, logits, key):
    return jax.shard_map(_body, mesh=mesh, in_specs=(P(AXES.DATA), P()), out_specs=P(AXES.DATA))(logits, key)


def sample_model_sharded(mesh, logits, key):
    model = NamedSharding(mesh, P(None, AXES.MODEL))
    return jax.jit(_body, in_shardings=(model, NamedSharding(mesh, P())))(logits, key)


class _Names:
    DATA = "data"

    def __getattr__(self, name):
        return name.lower()


NAMES = _Names()


def sample_declared(mesh, logits, key):
    # NAMES.DATA is the class's own attribute, "data": the shard_map binds it.
    return jax.shard_map(lambda l, k: l + jax.lax.axis_index(NAMES.DATA), mesh=mesh,
                         in_specs=(P(NAMES.DATA), P()), out_specs=P(NAMES.DATA))(logits, key)
