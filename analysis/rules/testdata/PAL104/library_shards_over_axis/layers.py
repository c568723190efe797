# Library layers whose shard_map was removed or turned into a jit: no
# function here has a caller in the workspace, but each shards over the
# axis it then reduces over, which JAX refuses inside a shard_map that
# makes that axis manual. So no caller's shard_map can bind the axis at
# the collective, and they fail wherever they run. The oracle calls each
# function under jax.jit with an Auto-axis mesh through the drivers in
# _oracle/ (not part of the case: a caller in it would make these
# functions entries): NameError at the collective, as predicted, 0.8 to
# 0.12. Called inside a fully manual shard_map over the same mesh, the
# sharding call raises first (ValueError, checked with 0.11.2).
import jax
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def row_parallel(mesh, x, w):
    def local(x, w):
        return lax.psum(x @ w, "model")  # want: warning PAL104 "`lax.psum` names axis `model`, which cannot be manual here: `jax.jit\(local, …\)` shards over `model` at layers.py:\d+, which JAX refuses inside a shard_map that makes it manual, so no shard_map binds it \(library function row_parallel\); with JAX 0.11 this fails: NameError: Found an unbound axis name: model"

    return jax.jit(
        local,
        in_shardings=(NamedSharding(mesh, P(None, "model")), NamedSharding(mesh, P("model", None))),
        out_shardings=NamedSharding(mesh, P()),
    )(x, w)


def gather_tokens(x):
    return lax.all_gather(x, "model", axis=0, tiled=True)  # want: warning PAL104 "`lax.all_gather` names axis `model`, which cannot be manual here: `lax.with_sharding_constraint\(x, …\)` shards over `model` at layers.py:\d+.*\(over a mesh with Explicit axes, the with_sharding_constraint raises first\): NameError: unbound axis name: model"


def constrained_gather(mesh, x):
    x = lax.with_sharding_constraint(x, NamedSharding(mesh, P("model")))
    return gather_tokens(x)

