import jax
import jax.numpy as jnp
from jax import export
from jax.experimental import pallas as pl

from kernels import SEMS, push_kernel


def push(x):
    return pl.pallas_call(push_kernel, out_shape=x, scratch_shapes=SEMS)(x)  # want: PAL101 "remote DMA.*Cannot use communication in pallas_call without shard_map"


spec = jax.ShapeDtypeStruct((8, 128), jnp.float32)
exported = export.export(jax.jit(push), platforms=["tpu"])(spec)
