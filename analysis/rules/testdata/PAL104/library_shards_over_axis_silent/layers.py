# Look-alikes of library_shards_over_axis that must stay silent: library
# functions (no caller in the workspace) that shard over one axis and
# reduce over another, which a caller's partial shard_map may make
# manual; that open a shard_map over the axis after sharding over it;
# whose shardings name no axis; whose vmap binds the name; or that
# device_put to a sharding over the axis, which JAX allows inside a
# shard_map that makes it manual. The oracle's driver (_oracle/callers.py)
# calls them with an Auto-axis mesh: reduce_other inside
# jax.shard_map(..., axis_names={"data"}), placed_index inside a fully
# manual shard_map, the others under jax.jit; all run clean, 0.8 to 0.12.
import functools

import jax
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def reduce_other(mesh, x):
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, P(None, "model")))
    return lax.psum(x, "data")


def reshard_then_map(mesh, x):
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, P("model")))

    @functools.partial(jax.shard_map, mesh=mesh, in_specs=P("model"), out_specs=P())
    def body(y):
        return lax.psum(y, "model")

    return body(x)


def replicated_jit(mesh, x):
    def local(x):
        return lax.psum(x, "model")

    return jax.shard_map(
        jax.jit(local, in_shardings=NamedSharding(mesh, P()), out_shardings=NamedSharding(mesh, P())),
        mesh=mesh, in_specs=P("model"), out_specs=P(),
    )(x)


def batched(mesh, x):
    x = jax.device_put(x, NamedSharding(mesh, P("model")))
    return jax.vmap(lambda r: lax.psum(r, "model"), axis_name="model")(x)


def placed_index(mesh, x):
    # device_put to a sharding over "data" runs inside a shard_map that
    # makes "data" manual too: no evidence.
    x = jax.device_put(x, NamedSharding(mesh, P("data")))
    return x + lax.axis_index("data")
