# This kernel has no marker of its own (only pl.* and lax), but the
# project imports jax.experimental.pallas.tpu elsewhere (tiles.py) and
# nothing of Pallas GPU: it is taken to be a TPU kernel, at full severity.
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.sharding import PartitionSpec as P


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + lax.axis_index("x").astype(jnp.float32)


def step(x):
    mesh = jax.make_mesh((jax.device_count(),), ("x",))
    return jax.shard_map(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype)), mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)  # want: error PAL101 "; with JAX [0-9.]+ this fails: NameError"
