# Look-alikes of decorated_method_axis that JAX runs: the decorated layer
# inside the shard_map that makes "model" manual, with the decorator
# given a name; and a layer whose reduction axis is None (no psum).
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)
from jax.sharding import Mesh, PartitionSpec as P


def scoped(arg=None, *, name=None):
    if isinstance(arg, str) and name is None:
        name, arg = arg, None

    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with jax.named_scope(name or fn.__qualname__):
                return fn(*args, **kwargs)

        return wrapper

    if callable(arg):
        return decorator(arg)
    return decorator


def local_matmul(x, w, reduce_axis=None):
    out = x @ w
    if reduce_axis is not None:
        out = jax.lax.psum(out, axis_name=reduce_axis)
    return out


class RowParallel:
    def __init__(self, kernel_axes):
        self.kernel_axes = kernel_axes

    @scoped("row_parallel")
    def __call__(self, x, w):
        return local_matmul(x, w, reduce_axis=self.kernel_axes[0])


mesh = Mesh(np.array(jax.devices()), ("model",))
X, W = jnp.ones((8, 128)), jnp.ones((128, 128))
sharded = RowParallel(kernel_axes=("model", None))
jax.block_until_ready(jax.jit(jax.shard_map(sharded, mesh=mesh, in_specs=(P(None, "model"), P("model", None)),
                                            out_specs=P()))(X, W))
local = RowParallel(kernel_axes=(None, None))
jax.block_until_ready(jax.jit(local)(X, W))
