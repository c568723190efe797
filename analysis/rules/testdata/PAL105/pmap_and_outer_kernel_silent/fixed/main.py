import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          compiler_params=pltpu.CompilerParams())(x)


# jax.pmap runs its body with check_vma off.
jax.pmap(step, axis_name="x")(jnp.ones((8, 8, 128)))


# pl.kernel converts out_type where pl.kernel(...) runs: at module level here,
# outside the shard_map that calls the kernel later.
# want+1: PAL302 "deprecated"
@pl.kernel(out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=pltpu.TensorCoreMesh("core", num_cores=1))
def copy(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)


mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
jax.jit(jax.shard_map(copy, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(jnp.ones((64, 128)))
