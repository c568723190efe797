# The shard_map makes only "x" manual ("y" stays automatic): a psum over
# "y" in its body names an axis the shard_map does not bind. From JAX 0.5
# tracing fails (NameError); before, lowering or XLA fails (lowering/
# collectives.go: PartialShardMapCollective).
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P


def body(x):
    return lax.psum(x, "y")  # want: PAL104 "`lax.psum` names axis `y`, inside a shard_map that does not make it manual"


mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
jax.block_until_ready(jax.jit(f)(jnp.ones((64, 128), jnp.float32)))
