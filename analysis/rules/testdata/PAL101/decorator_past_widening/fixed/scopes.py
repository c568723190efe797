"""A home-made decorator, applied to every function of the project.

More definitions are decorated than the interpreter evaluates one function
for precisely (the widening count): the ones past it must still wrap
their own bodies.
"""
import functools

import jax


def named(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with jax.named_scope(fn.__name__):
            return fn(*args, **kwargs)

    return wrapper
