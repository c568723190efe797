"""scripts/oracle --self-test: the harness's own tests, without JAX.

They pin down what the results depend on besides JAX: version matching,
entry discovery, message normalisation, the line format, and that
oracle/cases/gen is exactly what gen.py writes (a hand edit, or a change of
the generator without --generate, fails here).
"""

import json
import os
import sys
import tempfile
import unittest

from . import cases, discover, paths, results, versions
from .child import layers
from .gen import program, write


class Versions(unittest.TestCase):
    def test_matches(self):
        self.assertTrue(versions.matches("0.6.2", ">=0.6,<0.11"))
        self.assertFalse(versions.matches("0.11.2", ">=0.6,<0.11"))
        self.assertTrue(versions.matches("0.12.0.1", ">0.12"))
        self.assertTrue(versions.matches("0.4.38", ""))
        self.assertFalse(versions.matches("0.4.29", ">=0.4.30"))
        self.assertLess(versions.key("0.4.38"), versions.key("0.5.3"))


class Discovery(unittest.TestCase):
    def _case(self, files):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        d = tmp.name
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        return d

    def test_entries(self):
        d = self._case({
            "main.py": "import ops\nops.run(1)\n",
            "ops.py": "def run(x):\n    return x\nrun(2)\n",  # imported: not an entry
            "cli.py": "def f():\n    pass\nif __name__ == '__main__':\n    f()\n",
            "lib.py": "import functools\nP = functools.partial(print, 1)\nX = 3\n",
            "tests/test_a.py": "def test_a():\n    pass\n",
            "fixed/main.py": "print(1)\n",
        })
        self.assertEqual(discover.entries(d),
                         [("cli.py", "script"), ("main.py", "script"), ("tests/test_a.py", "pytest")])


class Records(unittest.TestCase):
    def test_normalise(self):
        msg = "at /r/oracle/cases/x/main.py:3 and /v/site-packages/jax/_src/a.py <f at 0x7f12ab34cd>"
        self.assertEqual(layers.normalise(msg, "/r", "/v/site-packages"),
                         "at oracle/cases/x/main.py:3 and <site-packages>/jax/_src/a.py <f at 0x?>")

    def test_line(self):
        e = cases.Entry("oracle/cases/gen/x", "main.py", "script")
        err = {"layer": "trace", "message": "m", "type": "NameError"}
        self.assertEqual(results.line(e, "0.7.2", err),
                         '{"case": "oracle/cases/gen/x", "entry": "main.py", "jax": "0.7.2", '
                         '"error": {"type": "NameError", "message": "m", "layer": "trace"}}')
        self.assertEqual(json.loads(results.line(e, "0.7.2", None))["error"], None)


class Corpus(unittest.TestCase):
    def test_generated_is_fresh(self):
        want = {}
        for case, targeted in write.cases():
            d = os.path.join(paths.GENERATED, case.scenario.name)
            want.update({os.path.join(d, n): t for n, t in case.files.items()})
            want[os.path.join(d, "case.toml")] = program.case_toml(case, targeted)
        have = set()
        for root, _, files in os.walk(paths.GENERATED):
            have.update(os.path.join(root, f) for f in files)
        self.assertEqual(sorted(paths.rel(p) for p in have - set(want)), [], "files gen.py does not write")
        self.assertEqual(sorted(paths.rel(p) for p in set(want) - have), [], "files gen.py writes, missing")
        stale = [paths.rel(p) for p, t in want.items() if open(p).read() != t]
        self.assertEqual(stale, [], "stale: run scripts/oracle --generate")


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    ok = unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful()
    return 0 if ok else 1
