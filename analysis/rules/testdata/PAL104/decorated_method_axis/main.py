# A layer whose __call__ is wrapped by a decorator that takes optional
# arguments (`@scoped` or `@scoped("name")`, told apart with isinstance and
# callable). The layer's reduction axis, "model", is a literal the test
# gives; its shard_map was turned into a plain jit, so nothing binds it.
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl  # noqa: F401  (pallas-ls checks the modules that reach Pallas)


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
        out = jax.lax.psum(out, axis_name=reduce_axis)  # want: PAL104 "`lax.psum` names axis `model`, outside any shard_map, pmap or vmap that binds it .*; with JAX [0-9.]+ this fails: NameError: .*unbound axis name: model"
    return out


class RowParallel:
    def __init__(self, kernel_axes):
        self.kernel_axes = kernel_axes

    @scoped
    def __call__(self, x, w):
        in_axis = self.kernel_axes[0]
        return jax.jit(functools.partial(local_matmul, reduce_axis=in_axis))(x, w)


layer = RowParallel(kernel_axes=("model", None))
jax.block_until_ready(layer(jnp.ones((8, 128)), jnp.ones((128, 128))))
