import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_maybe_bias(x_ref, *refs):
    *in_refs, o_ref = refs
    o_ref[...] = x_ref[...]
    for r in in_refs:
        o_ref[...] += r[...]


def run(x, bias=None):
    # The lists grow after they are built: their length is not judged.
    spec = pl.BlockSpec(block_shape=(128, 512), index_map=lambda i: (i, 0))
    in_specs = [spec]
    operands = [x]
    if bias is not None:
        in_specs.append(spec)
        operands.append(bias)
    return pl.pallas_call(
        add_maybe_bias,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=in_specs,
        out_specs=spec,
    )(*operands)


x = jnp.ones((256, 512), jnp.float32)
run(x, x)
