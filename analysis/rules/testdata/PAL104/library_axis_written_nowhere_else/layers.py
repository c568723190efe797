# Library layers: no function here has a caller in the workspace, so each
# collective runs in a context its callers choose. Three axis names are
# written nowhere else in the workspace (misspelt renames of mesh.py's
# "model" and of the core mesh's "core"): no mesh, core mesh or binder
# here has them, so wherever these run inside the workspace's meshes,
# tracing fails. The oracle calls each function inside a fully manual
# shard_map over mesh.py's mesh through the drivers in _oracle/ (not part
# of the case: a caller in it would make these functions entries): as
# predicted, 0.8 to 0.12, psum_scatter raises NameError "unbound axis
# name: modle", pmean AssertionError (core.pvary, check_vma on), and the
# kernel's axis_index NameError "Found an unbound axis name: cores. ...".
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P

core_mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=1)


def reduce_scatter(x):
    return lax.psum_scatter(x, "modle", tiled=True)  # want: warning PAL104 "`lax.psum_scatter` names axis `modle`, which nothing else in the workspace writes, so no mesh or binder here has it \(library function reduce_scatter\); unless a caller outside the workspace binds it, with JAX 0.11 this fails: NameError: unbound axis name: modle"


def sharded_mean(mesh, x):
    @functools.partial(jax.shard_map, mesh=mesh, in_specs=P("model"), out_specs=P())
    def body(y):
        return lax.pmean(y, "mdoel")  # want: warning PAL104 "`lax.pmean` names axis `mdoel`, which nothing else .*AssertionError"

    return body(x)


@functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=core_mesh)
def offset_kernel(x_ref, o_ref):
    i = lax.axis_index("cores")  # want: warning PAL104 "`lax.axis_index` in kernel `offset_kernel` names axis `cores`, which nothing else in the workspace writes, so no mesh, core mesh or grid here has it.*unless a mesh or caller from outside the workspace binds it.*NameError: Found an unbound axis name: cores"
    o_ref[...] = x_ref[...] + i.astype(jnp.float32)


def offset(x):
    return offset_kernel(x)  # want: info PAL101 "communicating kernel `offset_kernel`.*callers must run this inside jax.shard_map"
