import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def copy_kernel(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)


def step(x):
    # pl.kernel(...) converts out_type when it is called: here, inside the shard_map.
    return pl.kernel(
        copy_kernel,
        out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: PAL105 "without manual_axis_type="
        mesh=pltpu.TensorCoreMesh("core", num_cores=1),  # want: PAL302 "deprecated"
    )(x)


mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
jax.jit(jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False))(jnp.ones((64, 128)))
