# Library layers whose shard_map was removed or turned into a jit, where
# the axis is a parameter's value: nothing here calls them, and no axis
# name is written, but each function shards over a value and then reduces
# over that same value (a parameter, an attribute of the layer, an item
# unpacked from one), whatever axis it names. JAX refuses the sharding
# inside a shard_map that makes the axis manual, so no caller's shard_map
# binds it at the collective. The oracle's drivers (_oracle/) call them
# (mesh (2, 4) over ("data", "model"), Auto axes, under jax.jit;
# weight_sharding P("model", None), kernel_axes ("model", None)): NameError
# "Found an unbound axis name: model" for the psum, "unbound axis name:
# model" for psum_scatter, as predicted, 0.8 to 0.12.
import functools

import jax
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def row_parallel(x, w, weight_sharding, *, mesh=None):
    if isinstance(weight_sharding, NamedSharding):
        mesh = mesh or weight_sharding.mesh
        weight_sharding = weight_sharding.spec
    in_axis, out_axis = weight_sharding
    x_spec = P("data", in_axis)
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, x_spec) if mesh else x_spec)

    def wrapper(x, w):
        out = x @ w
        if in_axis:
            out = lax.psum(out, axis_name=in_axis)  # want: warning PAL104 "`lax.psum` names the axis in `in_axis`, which cannot be manual here: `lax.with_sharding_constraint\(x, …\)` shards over the axis in `in_axis` at linear.py:\d+, which JAX refuses inside a shard_map that makes it manual, so no shard_map binds it \(library function row_parallel\); with JAX 0.11 this fails \(over a mesh with Explicit axes, the with_sharding_constraint raises first\): NameError: Found an unbound axis name: \{name\}"
        return out

    return wrapper(x, w)


def reduce_local(x, w, reduce_axis):
    return lax.psum_scatter(x @ w, reduce_axis, scatter_dimension=1, tiled=True)  # want: warning PAL104 "`lax.psum_scatter` names the axis in `reduce_axis`, which cannot be manual here: `jax.jit\(functools.partial\(reduce_local, reduce_axis=input….* shards over the axis in `reduce_axis`.*\(library method QuantLinear.__call__\).*NameError: unbound axis name: \{name\}"


class QuantLinear:
    def __init__(self, mesh, kernel_axes):
        self.mesh = mesh
        self.kernel_axes = kernel_axes

    def __call__(self, x, w):
        input_axis = self.kernel_axes[0]
        return jax.jit(
            functools.partial(reduce_local, reduce_axis=input_axis),
            in_shardings=(NamedSharding(self.mesh, P("data", input_axis)), NamedSharding(self.mesh, P(input_axis, None))),
            out_shardings=NamedSharding(self.mesh, P("data", input_axis)),
        )(x, w)
