# Look-alikes of library_tree_mapped_shardings that must stay silent:
# library functions (no caller in the workspace) whose jit's tree-mapped
# shardings are replicated, name another axis than the collective's
# (which a caller's partial shard_map may make manual), or map a function
# that makes no sharding at all. The oracle's driver (_oracle/callers.py)
# calls replicated and other_axis inside shard_maps that bind the
# collective's axis, untouched under jax.jit; all run clean, 0.8 to 0.12.
import jax
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def replicated(mesh, x):
    specs = (P(),)

    def local(x):
        return lax.psum(x, "model")

    return jax.jit(local, in_shardings=jax.tree.map(lambda s: NamedSharding(mesh, s), specs,
                                                    is_leaf=lambda s: isinstance(s, P)),
                   out_shardings=NamedSharding(mesh, P()))(x)


def other_axis(mesh, x):
    specs = [P(None, "model")]

    def local(x):
        return lax.psum(x, "data")

    return jax.jit(local, in_shardings=tuple(jax.tree.map(lambda s: NamedSharding(mesh, s), specs,
                                                          is_leaf=lambda s: isinstance(s, P))))(x)


def untouched(x):
    scale = jax.tree.map(lambda s: s * 2, {"a": 1.0})
    return jax.jit(lambda y: y * scale["a"])(x)
