# The same kernel called eagerly under the Explicit context mesh, on a
# replicated operand: the eager op runs as a jit over the mesh and fails
# at lowering, not at pallas_call's Explicit-axes check.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_one_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: warning PAL103 "kernel `add_one_kernel` is called under a jit spanning several devices \(a context mesh \(jax.set_mesh\), called eagerly\) without shard_map.*this fails: NotImplementedError: Mosaic kernels cannot be automatically partitioned"
                          compiler_params=pltpu.CompilerParams())(x)


mesh = jax.make_mesh((jax.device_count(),), ("x",))
with jax.set_mesh(mesh):
    jax.block_until_ready(add_one(jnp.ones((64, 128), jnp.float32)))
