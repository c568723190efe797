# Library layers whose jit builds its shardings with a pytree map over
# the specs (jax.tree.map / jax.tree_util.tree_map of a lambda making a
# NamedSharding per spec): the shardings name the axis the body then
# reduces over, which JAX refuses inside a shard_map that makes that axis
# manual, so these fail wherever they run (as in
# library_shards_over_axis). The oracle calls each under jax.jit with an
# Auto-axis mesh through the drivers in _oracle/: NameError at the
# collective, as predicted, 0.8 to 0.12.
import jax
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def row_parallel(mesh, x, w):
    specs = (P(None, "model"), P("model", None))

    def local(x, w):
        return lax.psum(x @ w, "model")  # want: warning PAL104 "`lax.psum` names axis `model`, which cannot be manual here: `jax.jit\(local, …\)` shards over `model` at layers.py:\d+, which JAX refuses inside a shard_map that makes it manual, so no shard_map binds it \(library function row_parallel\); with JAX 0.11 this fails: NameError: Found an unbound axis name: model"

    return jax.jit(
        local,
        in_shardings=jax.tree.map(lambda s: NamedSharding(mesh, s), specs, is_leaf=lambda s: isinstance(s, P)),
        out_shardings=NamedSharding(mesh, P()),
    )(x, w)


def gather_rows(mesh, x):
    specs = {"x": P("model")}

    def local(x):
        return lax.all_gather(x, "model", axis=0, tiled=True)  # want: warning PAL104 "`lax.all_gather` names axis `model`, which cannot be manual here: `jax.jit\(lambda t: local\(t\[\"x\"\]\), …\)` shards over `model`"

    shardings = jax.tree_util.tree_map(lambda s: NamedSharding(mesh, s), specs)
    return jax.jit(lambda t: local(t["x"]), in_shardings=(shardings,))({"x": x})
