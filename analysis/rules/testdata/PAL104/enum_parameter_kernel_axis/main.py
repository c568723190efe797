# A choice made on a JAX enum member, as tests parameterized over
# pltpu.CoreType make it: `is` between two members of one enum is known, so
# the branch taken is the only one analysed.
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P

CORE_TYPE = pltpu.CoreType.TC

if CORE_TYPE is pltpu.CoreType.TC:
    AXIS = "y"  # a renamed axis: the mesh has only x
else:
    AXIS = "x"


def kernel(x_ref, o_ref):
    me = lax.axis_index(AXIS)  # want: PAL104 "names axis `y`, which the mesh of the shard_map around the call does not have"
    o_ref[...] = x_ref[...] + me.astype(x_ref.dtype)


def step(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(np.array(jax.devices()), ("x",))
X = jnp.ones((8 * len(jax.devices()), 128), jnp.float32)
jax.block_until_ready(jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(X))
