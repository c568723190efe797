# The core mesh is chosen at run time, as JAX's own tests choose it per
# core type: a TensorCore mesh or a scalar-subcore mesh, both with the
# single axis "x". The kernel asks the index of "y", which neither mesh
# has, so on either path it is a device axis, and under a plain jit
# nothing binds it: tracing fails on it.
import functools
import os

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc
from jax.sharding import PartitionSpec as P

if os.environ.get("USE_SPARSECORE"):
    core_mesh = plsc.ScalarSubcoreMesh(axis_name="x", num_cores=1)
else:
    core_mesh = pltpu.TensorCoreMesh(axis_name="x", num_cores=1)


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def kernel(x_ref, o_ref):
    i = lax.axis_index("y")
    del i
    pltpu.sync_copy(x_ref, o_ref)


mesh = jax.make_mesh((jax.device_count(),), ("y",))
jax.block_until_ready(jax.jit(jax.shard_map(kernel, mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=False))(jnp.ones((8, 128), jnp.float32)))  # want: PAL101 "communicating kernel `kernel`.*called outside a fully manual jax.shard_map.*NameError: Found an unbound axis name: y"
