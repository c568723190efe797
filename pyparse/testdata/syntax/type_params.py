# Needs Python 3.12: type parameter syntax (PEP 695).
from collections.abc import Callable

type Pair[T] = tuple[T, T]
type Handler[**P, R] = Callable[P, R]
type Packed[*Ts] = tuple[int, *Ts]


class Box[T: (int, float), *Ts, **P]:
    def map[U](self, f: Callable[[T], U]) -> "Box[U]":
        type Local = list[U]
        return self


def first[T](xs: list[T]) -> T:
    return xs[0]


async def later[T](x: T) -> T:
    return x


type = "a name again"
print(type, type.upper())
