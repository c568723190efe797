import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def body(x):
    return pl.pallas_call(kernel, out_shape=x, grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0))(x)  # want: PAL102 "leaves mesh axes model not manual.*in a shard_map or xmap"


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("data", "model"))
# eager shard_map with auto= raises a bare NotImplementedError before lowering: jit it.
jax.jit(shard_map(body, mesh, in_specs=P("data"), out_specs=P("data"), check_rep=False, auto=frozenset({"model"})))(jnp.ones((8, 128)))
