# A layer whose reduction axis comes from configuration pallas-ls cannot
# read, reduced over only when it is set: `if in_axis:` shows it is not
# None or (), and under a jax.jit with no shard_map around it no binder
# binds any name, so whichever axis the configuration names is unbound
# (the layer's shard_map was turned into a jit with shardings).
import json
import os

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)

CONFIG = json.loads(os.environ.get("LAYER_CONFIG", '{"weight_axes": ["x", null]}'))


def row_parallel(x, w, weight_axes):
    in_axis, out_axis = weight_axes

    def body(x, w):
        out = x @ w
        if in_axis and out_axis is None:
            out = jax.lax.psum(out, axis_name=in_axis)  # want: PAL104 "`lax.psum` names the axis in `in_axis`, a value not known here but non-empty where an `if` tested it, outside any shard_map, pmap or vmap .*so whatever axis it names is unbound .*; with JAX [0-9.]+ this fails: NameError: .*unbound axis name"
        return out

    return jax.jit(body)(x, w)


jax.block_until_ready(row_parallel(jnp.ones((8, 128)), jnp.ones((128, 128)), CONFIG["weight_axes"]))
