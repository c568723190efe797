import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def two_outputs(x_ref, o_ref, p_ref):
    o_ref[...] = x_ref[...] + 1
    p_ref[...] = x_ref[...] - 1


# One BlockSpec for two outputs: Pallas wants one spec per output.
x = jnp.ones((256, 512), jnp.float32)
spec = pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0))
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
y = pl.pallas_call(
    two_outputs,
    out_shape=(shape, shape),
    grid=(2,),
    in_specs=[spec],
    out_specs=spec,  # want: PAL213 "out_specs. is a pytree leaf but .out_shape. is a <class .tuple.>, so their Python types differ"
)(x)
