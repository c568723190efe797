# A library factory (no caller in the workspace) that returns the jitted
# layer instead of calling it, as tpu-inference's sharded_* attention
# factories do: its callers call what it returns. The jit shards over the
# axis its body reduces over, so the layer fails wherever it runs (as in
# library_shards_over_axis). The oracle's driver builds the layer and
# calls it under jax.jit with an Auto-axis mesh: NameError at the
# collective, as predicted, 0.8 to 0.12.
import jax
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P


def make_row_parallel(mesh):
    def local(x, w):
        return lax.psum(x @ w, "model")  # want: warning PAL104 "`lax.psum` names axis `model`, which cannot be manual here: `jax.jit\(local, …\)` shards over `model` at layers.py:\d+, which JAX refuses inside a shard_map that makes it manual, so no shard_map binds it \(library function make_row_parallel\); with JAX 0.11 this fails: NameError: Found an unbound axis name: model"

    return jax.jit(
        local,
        in_shardings=(NamedSharding(mesh, P(None, "model")), NamedSharding(mesh, P("model", None))),
        out_shardings=NamedSharding(mesh, P()),
    )
