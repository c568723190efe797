from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def scale(x):
    return pl.pallas_call(scale_kernel, out_shape=x,  # want: warning PAL103 "kernel `scale_kernel` is called under a jit spanning several devices \(in_shardings with a NamedSharding\) without shard_map \(reached from module top level of main.py through `jax.jit\(_local, …\)`\).*cannot be automatically partitioned"
                          compiler_params=pltpu.CompilerParams())(x)
