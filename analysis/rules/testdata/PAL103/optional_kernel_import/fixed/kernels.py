from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import PartitionSpec as P
import jax


def scale_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def scale(x):
    return jax.shard_map(pl.pallas_call(scale_kernel, out_shape=x,  # want: warning PAL103 "kernel `scale_kernel` is called under a jit spanning several devices \(in_shardings with a NamedSharding\) without shard_map \(reached from module top level of main.py through `jax.jit\(_local, …\)`\).*cannot be automatically partitioned"
                          compiler_params=pltpu.CompilerParams()), mesh=None, in_specs=P(), out_specs=P(), check_vma=False)(x)
