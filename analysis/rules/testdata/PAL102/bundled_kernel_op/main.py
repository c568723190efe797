# A kernel JAX bundles, inside a shard_map manual over x only: the y axis
# is left to XLA, which cannot partition a Mosaic kernel.
import jax
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu.flash_attention import flash_attention
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


@jax.jit
def step(q):
    return jax.shard_map(lambda q: flash_attention(q, q, q), mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names={"x"}, check_vma=False)(q)  # want: PAL102 "kernel `flash_attention` is called inside a shard_map that leaves mesh axes y not manual.*cannot be automatically partitioned"


step(jnp.ones((8, 2, 128, 128), jnp.float32))
