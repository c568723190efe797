"""Mutation harness entry (written by internal/mutate into each oracle case).

Runs one test method, one pytest function or one script of a (mutated)
module the way its test runner would, so that the oracle records the first
exception JAX raises there. What the oracle's simulated TPU execution cannot
honour is switched off: result assertions (outputs are zeros), `assert`
statements of the module (compiled with optimize=1), and skips that only
look at the host (`self.skipTest`: the host is a CPU). The unmutated module
runs through the same entry: a mutant counts only where that run is clean.
"""

import itertools
import json
import os
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CFG = json.load(open(os.path.join(HERE, "_mutate.json")))


def noop(*args, **kwargs):
    return None


KEEP = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assertWarns", "assertWarnsRegex",
        "assertLogs", "assertNoLogs"}


def neutralise(classes=()):
    try:
        import numpy.testing as npt
        for name in dir(npt):
            if name.startswith("assert_"):
                setattr(npt, name, noop)
    except ImportError:
        pass
    for cls in list(classes) + [unittest.TestCase]:
        for klass in getattr(cls, "__mro__", (cls,)):
            if klass is object:
                continue
            for name in list(vars(klass)):
                if name.startswith("assert") and name not in KEEP and callable(getattr(klass, name, None)):
                    setattr(klass, name, noop)
            if "skipTest" in vars(klass):
                setattr(klass, "skipTest", noop)
    unittest.TestCase.skipTest = noop


def load(path, name):
    with open(path) as f:
        src = f.read()
    code = compile(src, path, "exec", optimize=1)
    mod = types.ModuleType(name)
    mod.__file__ = path
    sys.modules[name] = mod
    exec(code, mod.__dict__)
    return mod


def run_method(mod):
    cls = getattr(mod, CFG["class"])
    m = CFG["method"]
    others = [o for o in CFG.get("others", []) if o != m and o.startswith(m)]
    names = [m] if callable(getattr(cls, m, None)) else sorted(
        n for n in dir(cls)
        if n.startswith(m) and not any(n.startswith(o) for o in others) and callable(getattr(cls, n, None)))
    if not names:
        raise LookupError(f"no test method {m} in {CFG['class']}")
    neutralise([cls])
    ran = 0
    cls.setUpClass()
    for n in names:
        tc = cls(n)
        try:
            tc.setUp()
            getattr(tc, n)()
            ran += 1
        except unittest.SkipTest:
            continue
        finally:
            try:
                tc.tearDown()
                tc.doCleanups()
            except Exception:
                pass
    if not ran:
        raise unittest.SkipTest(f"every run of {m} was skipped")


def run_function(mod):
    fn = getattr(mod, CFG["function"])
    sets = [{}]
    for mark in getattr(fn, "pytestmark", []):
        if getattr(mark, "name", "") != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = []
        for v in values:
            v = getattr(v, "values", v)  # pytest.param(...)
            if len(names) == 1:
                v = (v,)
            rows.append(dict(zip(names, v)))
        sets = [{**a, **b} for a, b in itertools.product(sets, rows)]
    neutralise()
    for kwargs in sets[:8]:
        fn(**kwargs)


def main():
    for p in CFG.get("paths", []):
        if p not in sys.path:
            sys.path.append(p)
    path = os.path.join(HERE, CFG["file"])
    if CFG["kind"] == "script":
        neutralise()
        sys.argv = [path]
        load(path, "__main__")
        return
    mod = load(path, os.path.splitext(CFG["file"])[0])
    if CFG["kind"] == "method":
        run_method(mod)
    else:
        run_function(mod)


main()
