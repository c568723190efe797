# Needs Python 3.9: stars whose operand is more than a name. The grammar
# accepts these but stars only the first name: (*q).shape.
import jax


def shapes(q, v, cfg):
    out = (*q.shape[:-1], v.shape[-1])
    cores = [*cfg.core_types]
    calls = [*map(abs, q), *cfg.items()]
    B, T = *q.shape, v
    for dim in *q.shape, 1:
        print(dim)
    grid = {*range(cfg.n), *cfg.extra}
    return out, cores, calls, B, T, grid, *jax.eval_shape(abs, q)


def add(a, b):
    return [*a + b, *a.b[0](1)]
