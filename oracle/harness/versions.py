"""JAX version numbers and the constraints cases put on them.

A constraint is a comma-separated list of clauses such as ">=0.6.1",
"<0.11", "==0.4.30" (all must hold); the empty constraint matches every
version. Versions compare as tuples of integers: 0.4.38 < 0.5.3 <
0.12.0.1.
"""

import operator
import re

_OPS = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
        "==": operator.eq, "!=": operator.ne}
_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*([0-9][0-9.]*)\s*$")


def key(version):
    return tuple(int(p) for p in version.split("."))


def matches(version, constraint):
    for clause in (c for c in constraint.split(",") if c.strip()):
        m = _CLAUSE.match(clause)
        if m is None:
            raise ValueError(f"bad version constraint {constraint!r}")
        op, bound = m.groups()
        if not _OPS[op](_padded(key(version)), _padded(key(bound))):
            return False
    return True


def _padded(t):
    return t + (0,) * (4 - len(t))
