# Arguments whose sharding meets the in_specs, Auto axes, empty specs,
# unknown arguments: nothing to report.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

X = jnp.ones((64, 128))


def add_one(x):
    return x + 1


# Auto axes: shard_map reshards its arguments.
auto = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
jax.block_until_ready(jax.jit(jax.shard_map(add_one, mesh=auto, in_specs=P("x"), out_specs=P("x")))(X))

# Explicit axes, the argument placed as in_specs say.
mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Explicit,))
placed = jax.device_put(X, NamedSharding(mesh, P("x")))
jax.block_until_ready(jax.jit(jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(placed))

# An empty spec meets an unsharded array.
jax.block_until_ready(jax.jit(jax.shard_map(add_one, mesh=mesh, in_specs=P(), out_specs=P()))(X))


# An argument of unknown origin: not judged.
def library(x):
    return jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)
