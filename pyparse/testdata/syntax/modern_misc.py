# Needs Python 3.10: other syntax the grammar handles, kept as a regression.
import contextlib

match = {"case": 1}
case = match["case"]


def f(a, /, b, *, c=lambda *xs, **kw: (xs, kw)):
    with (contextlib.nullcontext(a) as x, contextlib.nullcontext(b) as y,):
        pass
    if (n := len(str(x))) > 2:
        return [n := n + 1, n**2]
    match (x, y):
        case [1, *rest]:
            return rest
        case {"k": [v, *_], **others}:
            return v, others
        case complex(real=0) | None:
            return 0
        case str() as s if s:
            return s
        case _:
            return c(*a, **b)


@f(1, 2)[0].attr
def g():
    yield from (yield)
