"""Runs case entries under one JAX version and collects their results.

Each entry runs in a process of its own. By default a fork server per
worker imports jax once and forks a fresh child per entry before any
backend or configuration exists (`--cold` starts a new interpreter per
entry instead; `--compare-cold` checks that both give the same lines).
"""

import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading

from . import paths

BOOTSTRAP = os.path.join(paths.CHILD, "bootstrap.py")


def child_env():
    """The whole environment of a case process: nothing of the caller's
    JAX or XLA settings leaks in."""
    env = {k: os.environ[k] for k in ("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL") if k in os.environ}
    env.update({
        "JAX_PLATFORMS": "cpu",
        "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
        "PYTHONHASHSEED": "0",
        "JAX_TRACEBACK_FILTERING": "off",
        "PYTHONDONTWRITEBYTECODE": "1",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "OPENBLAS_NUM_THREADS": "1",
        "PALLAS_LS_ORACLE": "1",
    })
    for k in ("PALLAS_LS_ORACLE_TIMEOUT", "PALLAS_LS_ORACLE_TRACEBACK"):
        if k in os.environ:
            env[k] = os.environ[k]
    return env


def run(python, entries, jobs=2, cold=False, log_dir=None):
    """{entry: error record or None} for every entry."""
    work = tempfile.mkdtemp(prefix="pallas-ls-oracle-")
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
    try:
        todo = queue.Queue()
        for i, e in enumerate(entries):
            todo.put((i, e))
        results = {}
        worker = _cold_worker if cold else _server_worker
        threads = [threading.Thread(target=worker, args=(python, todo, results, work, log_dir))
                   for _ in range(max(1, min(jobs, len(entries))))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _request(i, entry, work, log_dir):
    log = os.path.join(log_dir, f"{entry.case}/{entry.path}".replace("/", "__") + ".log") \
        if log_dir else None
    return {
        "case_dir": os.path.join(paths.REPO, entry.case),
        "repo": paths.REPO,
        "entry": entry.path,
        "kind": entry.kind,
        "env": dict(entry.env),
        "keep_interpret": entry.keep_interpret,
        "result": os.path.join(work, f"{i}.json"),
        "log": log,
    }


def _read(path):
    with open(path) as f:
        return json.load(f)


def _server_worker(python, todo, results, work, log_dir):
    proc = subprocess.Popen([python, BOOTSTRAP, "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=child_env(), text=True,
                            cwd=paths.REPO)
    try:
        while True:
            try:
                i, entry = todo.get_nowait()
            except queue.Empty:
                return
            req = _request(i, entry, work, log_dir)
            proc.stdin.write(json.dumps(req) + "\n")
            proc.stdin.flush()
            if proc.stdout.readline().strip() != "done":
                raise RuntimeError(f"oracle fork server for {python} died")
            results[entry] = _read(req["result"])
    finally:
        proc.stdin.close()
        proc.wait()


def _cold_worker(python, todo, results, work, log_dir):
    timeout = float(os.environ.get("PALLAS_LS_ORACLE_TIMEOUT", "300"))
    while True:
        try:
            i, entry = todo.get_nowait()
        except queue.Empty:
            return
        req = _request(i, entry, work, log_dir)
        req_file = req["result"] + ".req"
        with open(req_file, "w") as f:
            json.dump(req, f)
        try:
            proc = subprocess.run([python, BOOTSTRAP, "once", req_file], env=child_env(),
                                  cwd=paths.REPO, timeout=timeout, stdin=subprocess.DEVNULL)
            problem = {"type": "Crash", "message": f"exited with {proc.returncode} and no result",
                       "layer": "oracle"}
        except subprocess.TimeoutExpired:
            problem = {"type": "Timeout", "message": f"no result after {timeout:.0f}s", "layer": "oracle"}
        results[entry] = _read(req["result"]) if os.path.exists(req["result"]) else problem
