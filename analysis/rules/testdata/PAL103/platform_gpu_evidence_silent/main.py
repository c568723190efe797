# The project imports Pallas Triton (gpu_ops.py): a kernel without markers
# of its own may run on GPU, where XLA replicates it under the multi-device
# jit and nothing fails, so nothing is said. (A kernel with TPU markers is
# still a TPU kernel: analysis/platform_test.go.)
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

import gpu_ops  # noqa: F401


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def step(x):
    return pl.pallas_call(local_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


mesh = Mesh(jax.devices(), ("x",))
sharded = NamedSharding(mesh, P("x"))
out = jax.jit(step, in_shardings=sharded, out_shardings=sharded)(jnp.ones((64, 128), jnp.float32))
jax.block_until_ready(out)
