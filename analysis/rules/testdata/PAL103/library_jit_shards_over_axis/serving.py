# Library code that jits a kernel with shardings over "x": nothing in the
# workspace calls serve, but no caller can make it work. Inside a
# shard_map that makes "x" manual, jit refuses the sharding; anywhere
# else the kernel's operands are sharded over "x", and XLA cannot
# partition a Mosaic kernel. So a warning (serve may have no caller at
# all), not an info hint. The oracle's driver (_oracle/serve.py) calls
# serve under jax.jit with an 8-device Auto-axis mesh: NotImplementedError
# "Mosaic kernels cannot be automatically partitioned", as predicted, 0.8
# to 0.12. Checked by hand with 0.11.2: the same with Explicit axes, and
# with an input placed on the Explicit mesh ValueError "pallas_call
# requires all mesh axes to be Manual", as the message's parenthesis says;
# inside a fully manual shard_map the jit's in_shardings raise first.
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.sharding import NamedSharding, PartitionSpec as P


def local_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add_one(x):
    return pl.pallas_call(local_kernel, out_shape=x, compiler_params=pltpu.CompilerParams())(x)  # want: warning PAL103 "kernel `local_kernel` is called under a jit spanning several devices \(in_shardings with a NamedSharding\) without shard_map, and callers cannot run it inside a fully manual jax.shard_map: `jax.jit\(add_one, …\)` shards over `x` at serving.py:\d+, which JAX refuses inside a shard_map that makes `x` manual \(library function serve\); with JAX 0.11 this fails when `x` spans more than one device: NotImplementedError: Mosaic kernels cannot be automatically partitioned. Please wrap the call in a shard_map. \(with inputs sharded over a mesh with Explicit axes, first: ValueError: pallas_call requires all mesh axes to be Manual"


def serve(x, mesh):
    step = jax.jit(add_one, in_shardings=NamedSharding(mesh, P("x")), out_shardings=NamedSharding(mesh, P("x")))
    return step(x)
