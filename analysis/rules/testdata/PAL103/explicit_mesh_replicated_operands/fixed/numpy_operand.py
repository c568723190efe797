# A NumPy operand has no sharding: under an Explicit context mesh the jit
# places it replicated, so pallas_call's Explicit-axes check passes and
# lowering fails with the partitioning error.
import jax
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return jax.shard_map(pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: warning PAL103 "kernel `add_one_kernel` is called under a jit spanning several devices \(a context mesh \(jax.set_mesh\)\) without shard_map.*this fails: NotImplementedError: Mosaic kernels cannot be automatically partitioned"
                          compiler_params=pltpu.CompilerParams()), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


mesh = jax.make_mesh((jax.device_count(),), ("x",))
with jax.set_mesh(mesh):
    jax.jit(add_one)(np.ones((64, 128), np.float32))
