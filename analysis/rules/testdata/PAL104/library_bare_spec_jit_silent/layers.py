# Look-alikes of library_bare_spec_jit that JAX runs: the layer in its
# shard_map, which makes the reduction axis manual; and a jit whose bare
# specs shard over the output axis only, another value than the one it
# reduces over (a caller's shard_map may make that one manual). The
# oracle calls each as its callers would (_oracle/callers.py).
import functools

import jax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import PartitionSpec as P


def _local(x, w, reduce_axis=None):
    out = x @ w
    if reduce_axis is not None:
        out = jax.lax.psum(out, axis_name=reduce_axis)
    return out


def row_parallel(mesh, x, w, kernel_axes):
    input_axis, output_axis = kernel_axes
    return jax.shard_map(functools.partial(_local, reduce_axis=input_axis), mesh=mesh,
                         in_specs=(P(None, input_axis), P(input_axis, output_axis)),
                         out_specs=P(None, output_axis))(x, w)


def column_sharded(x, w, kernel_axes):
    input_axis, output_axis = kernel_axes
    return jax.jit(functools.partial(_local, reduce_axis=input_axis),
                   in_shardings=(P(), P(None, output_axis)))(x, w)
