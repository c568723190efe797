# A kernel called eagerly under jax.set_mesh: an eager op there runs as a
# jit over the context mesh, so with several devices Mosaic must be
# partitioned, which it cannot (the shape of JAX's own check_vma test once
# its jit and shard_map decorators are removed). With an Explicit mesh
# (the make_mesh default since 0.9) and an operand sharded over it,
# pallas_call rejects the mesh first.
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P


def copy_kernel(x_ref, y_ref):
    y_ref[...] = x_ref[...]


def copy(x):
    return jax.shard_map(pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),  # want: warning PAL103 "kernel `copy_kernel` is called under a jit spanning several devices \(a context mesh \(jax.set_mesh\), called eagerly\) without shard_map \(reached from module top level of main.py\); with JAX 0.11 this fails: ValueError: pallas_call requires all mesh axes to be Manual"
                          compiler_params=pltpu.CompilerParams()), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


mesh = jax.make_mesh((jax.device_count(),), ("x",))
with jax.set_mesh(mesh):
    x = jnp.zeros((128, 128), jnp.float32, out_sharding=P("x"))
    jax.block_until_ready(copy(x))
