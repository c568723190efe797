# Nested shard_maps that take the context mesh, and shard_maps given the
# concrete mesh outside any shard_map body: nothing to report.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
X = jnp.ones((64, 128))


def add_one(x):
    return x + 1


def per_row(x):
    # mesh= left out: the inner shard_map uses the context mesh.
    return jax.shard_map(add_one, in_specs=P(), out_specs=P(), axis_names={"y"})(x)


jax.block_until_ready(jax.jit(jax.shard_map(per_row, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}))(X))


def per_row_abstract(x):
    # The context's abstract mesh, passed explicitly: it matches.
    inner = jax.shard_map(add_one, mesh=jax.sharding.get_abstract_mesh(), in_specs=P(), out_specs=P(), axis_names={"y"})
    return inner(x)


jax.block_until_ready(jax.jit(jax.shard_map(per_row_abstract, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}))(X))

# The concrete mesh, one shard_map after the other: no nesting.
first = jax.shard_map(add_one, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
second = jax.shard_map(add_one, mesh=mesh, in_specs=P("y"), out_specs=P("y"))
jax.block_until_ready(jax.jit(lambda v: second(first(v)))(X))


# A mesh whose origin is a parameter: not judged.
def nested_with(m, x):
    inner = jax.shard_map(add_one, mesh=m, in_specs=P(), out_specs=P(), axis_names={"y"})
    return jax.shard_map(inner, mesh=m, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})(x)
