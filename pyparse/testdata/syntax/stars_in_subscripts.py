# Needs Python 3.11: star-expressions in subscripts (PEP 646).
import jax.numpy as jnp

Shape = tuple[int, ...]


def fill_corner(ref, n):
    # The operand is a generator, a call, a parenthesized product...
    ref = ref.at[*(0 for _ in range(n))].set(1.0)
    ref = ref.at[*((0,) * n)].add(2.0)
    ref = ref.at[*range(n)].get()
    ref = ref.at[*jnp.nonzero(ref > 0)].set(0)
    return ref


def slices(x, lead, rest):
    a = x[*lead]
    b = x[0, *lead, 1:3]
    c = x[*lead, ...]
    d = x[*-rest]
    e = x[*lead or rest]
    f = x[*(lead + rest),]
    g = x[
        *lead,  # a comment between elements
        *rest,
    ]
    h = x[*  # a comment between the star and its operand
          (lead)]
    i = x[*\
(lead)]
    x[*lead] = 0
    x[*(lead)] += 1
    del x[*(rest)]
    return a, b, c, d, e, f, g, h, i, x[*x[*(lead)]]


def annotated(*args: *tuple[int, *Shape]) -> tuple[*Shape]:
    return args


async def awaited(x, get):
    return x[*await get()]
