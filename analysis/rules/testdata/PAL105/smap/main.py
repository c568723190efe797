import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import Mesh, PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(
        add_one_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: PAL105 "jax.ShapeDtypeStruct without manual_axis_type= and is traced inside a shard_map with check_vma on.*manual_axis_type. on .jax.ShapeDtypeStruct. must not be .None."
        compiler_params=pltpu.CompilerParams(),
    )(x)


mesh = Mesh(np.array(jax.devices()).reshape(8), ("x",))
with jax.set_mesh(mesh):
    # jax.smap always traces its body with check_vma on.
    jax.jit(jax.smap(step, in_axes=0, out_axes=0, axis_name="x"))(jnp.ones((64, 128)))
