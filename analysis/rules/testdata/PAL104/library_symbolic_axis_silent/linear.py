# Look-alikes of library_symbolic_axis that must stay silent: the layer
# shard_maps its own body (the code before the mutation); it shards over
# one parameter and reduces over another, which a caller's shard_map may
# make manual; a vmap around the collective may bind the name; and a
# symbol joined with a value not known has no identity left (joined may
# fail, but what it reduces over is not known: unknown is never an
# error). The oracle's driver (_oracle/callers.py: mesh (2, 4) over
# ("data", "model"), Auto axes, under jax.jit; in_axis "model";
# reduce_other's other_axis "data", inside a shard_map over "data") runs
# row_parallel, reduce_other and batched clean, 0.8 to 0.12.
import jax
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def row_parallel(x, w, weight_sharding, *, mesh):
    in_axis, out_axis = weight_sharding
    x_spec = P("data", in_axis)
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, x_spec))

    def wrapper(x, w):
        return lax.psum(x @ w, axis_name=in_axis)

    return jax.shard_map(wrapper, mesh=mesh, in_specs=(x_spec, P(in_axis, out_axis)), out_specs=P("data", out_axis), check_vma=False)(x, w)


def reduce_other(x, mesh, in_axis, other_axis):
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, P(None, in_axis)))
    return lax.psum(x, other_axis)


def joined(x, mesh, in_axis, table):
    axis = in_axis if x.ndim else table.axis
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, P(None, in_axis)))
    return lax.psum(x, axis)


def batched(x, mesh, in_axis):
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, P(None, in_axis)))
    return jax.vmap(lambda r: lax.psum(r, in_axis), axis_name="model")(x)
