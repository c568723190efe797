# The callable splash attention's make_splash_mha returns runs a Mosaic
# kernel: under a jit over several devices it cannot be partitioned.
import jax
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_kernel as splash
from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_mask as mask_lib
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(jax.devices(), ("x",))
batch = NamedSharding(mesh, P("x"))


def splash_step(q, k, v):
    mask = mask_lib.MultiHeadMask([mask_lib.CausalMask((128, 128))] * 8)
    kernel = splash.make_splash_mha(mask, head_shards=1, q_seq_shards=1)
    return kernel(q, k, v)  # want: PAL103 "kernel `make_splash_mha` is called under a jit spanning several devices.*cannot be automatically partitioned"


heads = jnp.ones((8, 128, 128), jnp.float32)
jax.jit(splash_step, in_shardings=(batch, batch, batch))(heads, heads, heads)
