# A library layer whose shard_map was turned into a jit with bare
# PartitionSpecs as in_shardings (over the context mesh): it shards over
# its kernel's input axis and then reduces over the same value. JAX
# refuses such a spec inside a shard_map that makes the axis manual
# ("pspec ... contains a manual axes"), and with no context mesh jit
# rejects a bare spec outright, so wherever it runs the psum's axis is
# unbound or the jit fails first. The oracle calls it under jax.set_mesh
# and jax.jit (_oracle/row_parallel.py): NameError.
import functools

import jax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import PartitionSpec as P


def _local(x, w, reduce_axis=None):
    out = x @ w
    if reduce_axis is not None:
        out = jax.lax.psum(out, axis_name=reduce_axis)  # want: warning PAL104 "`lax.psum` names the axis in `reduce_axis`, which cannot be manual here: `jax.jit\(functools.partial\(_local, reduce_axis=input_axis\)…` shards over the axis in `reduce_axis` at layers.py:\d+, .*; with JAX 0.11 this fails: NameError: Found an unbound axis name: \{name\}"
    return out


def row_parallel(x, w, kernel_axes):
    input_axis, output_axis = kernel_axes
    return jax.jit(
        functools.partial(_local, reduce_axis=input_axis),
        in_shardings=(P(None, input_axis), P(input_axis, output_axis)),
        out_shardings=P(None, output_axis),
    )(x, w)
