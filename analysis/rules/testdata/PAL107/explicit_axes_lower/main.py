# axis_types given as Explicit, two arguments, lowered with a
# ShapeDtypeStruct: the second argument's entry shards an unsharded value.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))


def second(a, b):
    return b * 2


f = jax.jit(jax.shard_map(second, mesh=mesh, in_specs=(P(), P(("x", "y"))), out_specs=P(("x", "y"))))  # want: PAL107 "P\(\('x', 'y'\), None\) does not match the specs of the input: P\(None, None\)"
f.lower(jnp.ones((64, 128)), jax.ShapeDtypeStruct((64, 128), jnp.float32))
