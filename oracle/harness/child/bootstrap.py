"""Entry point inside a JAX venv: `python bootstrap.py once REQUEST_FILE`
runs one case in this (fresh) process; `python bootstrap.py serve` is the
fork server: it imports jax once, then forks a child per request read from
stdin (one JSON object a line) and answers "done" on stdout when the
child's result file is written. Either way the child writes its result
(the error record or null) as JSON into request["result"].

The driver sets the environment before this starts (JAX_PLATFORMS=cpu,
8 host devices, PYTHONHASHSEED=0, no traceback filtering): jax reads it
at import, and a forked child inherits the parent's imports and nothing
else (no backend exists before the fork: `import jax` creates none).
"""

import json
import os
import signal
import sys
import time

sys.dont_write_bytecode = True
_HERE = os.path.dirname(os.path.abspath(__file__))
_HARNESS = os.path.dirname(_HERE)
sys.path[:] = [_HARNESS] + [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import jax  # noqa: E402  (after the environment is set; no backend is created)

from child import chip, interpret, lowering, run  # noqa: E402

# The program must not see the oracle's modules on its path.
sys.path.remove(_HARNESS)

TIMEOUT = float(os.environ.get("PALLAS_LS_ORACLE_TIMEOUT", "300"))


def _install():
    lowering.install()
    interpret.install()
    chip.install()


def _execute(request):
    """Runs the request here; writes its result file."""
    try:
        log = os.open(request.get("log") or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        error = run.run(request)
    except BaseException as e:  # a failure of the oracle itself, not of the case
        error = {"type": type(e).__name__, "message": f"oracle: {e}", "layer": "oracle"}
    _write(request["result"], error)


def _write(path, error):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(error, f, ensure_ascii=False)
    os.replace(tmp, path)


def _serve():
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            try:
                _execute(request)
            finally:
                os._exit(0)
        status = _wait(pid)
        if not os.path.exists(request["result"]):
            _write(request["result"], _problem(status))
        sys.stdout.write("done\n")
        sys.stdout.flush()


def _wait(pid):
    deadline = time.monotonic() + TIMEOUT
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.01)


def _problem(status):
    if status is None:
        return {"type": "Timeout", "message": f"no result after {TIMEOUT:.0f}s", "layer": "oracle"}
    if os.WIFSIGNALED(status):
        return {"type": "Crash", "message": f"killed by signal {os.WTERMSIG(status)}", "layer": "oracle"}
    return {"type": "Crash", "message": f"exited with {os.WEXITSTATUS(status)} and no result",
            "layer": "oracle"}


def main():
    _install()
    if sys.argv[1] == "serve":
        _serve()
    else:
        with open(sys.argv[2]) as f:
            _execute(json.load(f))


if __name__ == "__main__":
    main()
