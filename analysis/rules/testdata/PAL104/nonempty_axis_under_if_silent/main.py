# Look-alikes of nonempty_axis_under_if that JAX runs: an axis from
# configuration pallas-ls cannot read, where something binds it, where
# nothing shows it is set, or where the test lets it be ().
import json
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P

CONFIG = json.loads(os.environ.get("LAYER_CONFIG", '{"weight_axes": ["x", null], "none_axes": [[], null]}'))
mesh = Mesh(np.array(jax.devices()), ("x",))
X, W = jnp.ones((8, 128)), jnp.ones((128, 128))


def reduce_if_set(axes):
    in_axis, _ = axes

    def body(x, w):
        out = x @ w
        if in_axis:
            out = jax.lax.psum(out, axis_name=in_axis)
        return out

    return body


# Inside a fully manual shard_map over the configured axis: bound.
jax.block_until_ready(jax.jit(jax.shard_map(reduce_if_set(CONFIG["weight_axes"]), mesh=mesh,
                                            in_specs=(P(None, "x"), P("x", None)), out_specs=P()))(X, W))


def reduce_if_not_none(axes):
    in_axis, _ = axes

    def body(x, w):
        out = x @ w
        if in_axis is not None:
            # () is not None: a psum over no axis, which JAX runs.
            out = jax.lax.psum(out, axis_name=in_axis)
        return out

    return jax.jit(body)


jax.block_until_ready(reduce_if_not_none(CONFIG["none_axes"])(X, W))


def reduce_untested(axes):
    in_axis, _ = axes

    def body(x, w):
        # Nothing shows the axis is set: it may be (), as here.
        return jax.lax.psum(x @ w, axis_name=in_axis)

    return jax.jit(body)


jax.block_until_ready(reduce_untested(CONFIG["none_axes"])(X, W))


def reduce_in_vmap(axes):
    in_axis, _ = axes

    def body(v):
        if in_axis:
            # vmap binds the name it is given: maybe this one.
            return jax.lax.psum(v, axis_name=in_axis)
        return v

    return jax.vmap(body, axis_name=in_axis)


jax.block_until_ready(reduce_in_vmap(CONFIG["weight_axes"])(jnp.ones((4, 8))))


def reduce_unless_set(axes):
    in_axis, _ = axes

    def body(x, w):
        out = x @ w
        if in_axis:
            return out
        # Here the axis is falsy: a psum over no axis.
        return jax.lax.psum(out, axis_name=in_axis)

    return jax.jit(body)


jax.block_until_ready(reduce_unless_set(CONFIG["none_axes"])(X, W))
