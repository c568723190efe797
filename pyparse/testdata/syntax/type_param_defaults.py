# Needs Python 3.13: defaults of type parameters (PEP 696).
def pick[T = int](x: T) -> T:
    return x


class Table[K: str = str, *Cols = *tuple[int, ...], **P = [int]]:
    pass


type Grid[T = float] = list[list[T]]
