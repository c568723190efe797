"""Runs one case entry in this process and returns what it raised first.

A request is a dict: case_dir and repo (absolute), entry (relative to
case_dir), kind ("script" or "pytest"), env (extra variables). A script
runs as `python ENTRY` would: __name__ == "__main__", sys.argv[0] the
entry, its directory first on sys.path, the case directory as the working
directory. A pytest entry runs as `python -m pytest -x ENTRY` from the case
directory: tests in file order, stopping at the first failure.
"""

import io
import os
import runpy
import sys
import traceback

from . import interpret, layers


class OracleProblem(Exception):
    """The case could not run as intended (not a JAX result)."""


def run(request):
    """The error record of the request's first exception, or None."""
    os.environ.update(request.get("env") or {})
    interpret.ENABLED = not request.get("keep_interpret")
    case_dir = request["case_dir"]
    entry = os.path.join(case_dir, request["entry"])
    os.chdir(case_dir)
    sys.dont_write_bytecode = True
    try:
        if request["kind"] == "pytest":
            _run_pytest(entry, case_dir)
        else:
            _run_script(entry)
    except OracleProblem as e:
        return {"type": type(e).__name__, "message": str(e), "layer": "oracle"}
    except SystemExit as e:
        if e.code in (None, 0):
            return None
        return _record(e, request)
    except BaseException as e:  # the program's first escaping exception
        return _record(e, request)
    return None


def _record(exc, request):
    if os.environ.get("PALLAS_LS_ORACLE_TRACEBACK"):
        traceback.print_exception(exc, file=sys.__stderr__)
    return layers.record(exc, request["repo"], _site_packages())


def _site_packages():
    import jax
    return os.path.dirname(os.path.dirname(os.path.abspath(jax.__file__)))


def _run_script(entry):
    sys.argv = [entry]
    sys.path.insert(0, os.path.dirname(entry))
    runpy.run_path(entry, run_name="__main__")


def _run_pytest(entry, case_dir):
    import pytest
    plugin = _FirstFailure()
    sys.argv = ["pytest"]
    args = [entry, "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--rootdir", case_dir, "--import-mode=prepend", "-W", "ignore"]
    out = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = out
    try:
        code = pytest.main(args, plugins=[plugin])
    finally:
        sys.stdout = real_stdout
    if plugin.first is not None:
        raise plugin.first
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        raise OracleProblem("pytest collected no tests")
    if code not in (pytest.ExitCode.OK,):
        raise OracleProblem(f"pytest exited with {int(code)}: {out.getvalue()[-500:]}")


class _FirstFailure:
    """A pytest plugin that keeps the first exception of a failing test,
    setup or collection."""

    def __init__(self):
        self.first = None

    def pytest_exception_interact(self, node, call, report):
        if self.first is not None or call.excinfo is None:
            return
        exc = call.excinfo.value
        if type(exc).__name__ in ("FixtureLookupError", "CollectError"):
            exc = OracleProblem(f"pytest could not set up {node.nodeid}: {type(exc).__name__}")
        self.first = exc
