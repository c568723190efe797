"""One cached virtualenv per JAX version, built from PyPI with pip.

Venvs live under the user cache directory, never in the repository:
${XDG_CACHE_HOME:-~/.cache}/pallas-ls/oracle/venvs/<jax>-py<X.Y>-<lock hash>.
The lock file (oracle/locks/<jax>.txt, committed) pins every package, so
two machines get the same venv; its hash is part of the directory name, so
editing a lock builds a new venv instead of reusing a stale one.
"""

import glob
import hashlib
import os
import shutil
import subprocess
import sys
import time

from . import paths

# What a venv needs besides jax/jaxlib: pytest runs the test files of cases;
# absl-py is imported by Pallas TPU modules of several releases (0.5.x,
# 0.9.x, Mosaic GPU in 0.8.x) without being a dependency of jax, and every
# real TPU environment has it; rich (with its dependencies) is what
# jax.debug.visualize_array_sharding needs, so JAX's own shard_map notebook
# runs under the oracle (the mutation harness judges its mutants there).
EXTRA_PACKAGES = ["pytest==8.3.5", "absl-py==2.5.1", "rich==15.0.0", "markdown-it-py==4.3.0",
                  "mdurl==0.1.2", "Pygments==2.21.0"]


class VersionSpec:
    def __init__(self, jax, python):
        self.jax = jax
        self.python = python

    def __repr__(self):
        return f"VersionSpec({self.jax!r}, {self.python!r})"


def read_versions():
    """The versions of oracle/versions.txt, oldest first."""
    out = []
    with open(paths.VERSIONS) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                jax, python = line.split()
                out.append(VersionSpec(jax, python))
    return out


def spec_for(version):
    for spec in read_versions():
        if spec.jax == version:
            return spec
    known = ", ".join(s.jax for s in read_versions())
    raise SystemExit(f"scripts/oracle: JAX {version} is not in oracle/versions.txt ({known})")


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pallas-ls", "oracle", "venvs")


def lock_path(version):
    return os.path.join(paths.LOCKS, f"{version}.txt")


def find_python(minor):
    """A CPython X.Y interpreter: $PALLAS_LS_ORACLE_PYTHON<XY>, then pyenv's
    versions (newest patch first), then python<X.Y> on PATH (pyenv's shims,
    which fail for versions that are not selected, are skipped)."""
    env = os.environ.get("PALLAS_LS_ORACLE_PYTHON" + minor.replace(".", ""))
    if env:
        return env
    root = os.environ.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
    found = glob.glob(os.path.join(root, "versions", f"{minor}.*", "bin", f"python{minor}"))
    found = [p for p in found if _patch(p, minor) is not None]
    if found:
        return max(found, key=lambda p: _patch(p, minor))
    for d in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(d, f"python{minor}")
        if "shims" not in d.split(os.sep) and os.access(candidate, os.X_OK):
            return candidate
    raise SystemExit(f"scripts/oracle: no CPython {minor} found (install it with pyenv, "
                     f"or set PALLAS_LS_ORACLE_PYTHON{minor.replace('.', '')})")


def _patch(path, minor):
    rest = path.split(f"{os.sep}{minor}.", 1)[1].split(os.sep, 1)[0]
    return int(rest) if rest.isdigit() else None


def venv_dir(spec):
    digest = hashlib.sha256(open(lock_path(spec.jax), "rb").read()).hexdigest()[:10]
    return os.path.join(cache_root(), f"{spec.jax}-py{spec.python}-{digest}")


def ensure(spec, log=sys.stderr):
    """The python of the venv for spec, building the venv first if needed."""
    if not os.path.exists(lock_path(spec.jax)):
        raise SystemExit(f"scripts/oracle: no lock for JAX {spec.jax}; run scripts/oracle --lock {spec.jax}")
    target = venv_dir(spec)
    python = os.path.join(target, "bin", "python")
    if os.path.exists(os.path.join(target, ".complete")):
        return python
    t0 = time.monotonic()
    print(f"oracle: building venv for JAX {spec.jax} in {target}", file=log, flush=True)
    tmp = target + f".tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    _create(spec, tmp, ["--no-deps", "-r", lock_path(spec.jax)])
    _replace(tmp, target)
    _remove_stale(spec, target)
    print(f"oracle: venv for JAX {spec.jax} ready in {time.monotonic() - t0:.0f}s", file=log, flush=True)
    return python


def _create(spec, where, pip_args):
    os.makedirs(os.path.dirname(where), exist_ok=True)
    subprocess.run([find_python(spec.python), "-m", "venv", where], check=True)
    pip = [os.path.join(where, "bin", "python"), "-m", "pip", "install", "-q",
           "--disable-pip-version-check", "--no-input", *pip_args]
    subprocess.run(pip, check=True)
    open(os.path.join(where, ".complete"), "w").close()


def _replace(tmp, target):
    if os.path.exists(target):
        shutil.rmtree(target)
    try:
        os.rename(tmp, target)
    except OSError:  # another process finished first: keep theirs
        shutil.rmtree(tmp, ignore_errors=True)


def _remove_stale(spec, keep):
    """Venvs of this version built from an older lock."""
    for other in glob.glob(os.path.join(cache_root(), f"{spec.jax}-py*-*")):
        if other != keep and os.path.exists(os.path.join(other, ".complete")):
            shutil.rmtree(other, ignore_errors=True)


def write_lock(spec):
    """Resolves jax==V with pip in a scratch venv and writes its freeze as
    the lock of V."""
    scratch = os.path.join(cache_root(), f"lock-{spec.jax}-{os.getpid()}")
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        _create(spec, scratch, [f"jax=={spec.jax}", f"jaxlib=={spec.jax}", *EXTRA_PACKAGES])
        frozen = subprocess.run([os.path.join(scratch, "bin", "python"), "-m", "pip", "freeze",
                                 "--disable-pip-version-check"], check=True,
                                capture_output=True, text=True).stdout
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(paths.LOCKS, exist_ok=True)
    with open(lock_path(spec.jax), "w") as f:
        f.write(f"# pip freeze of the JAX {spec.jax} oracle venv (CPython {spec.python}); "
                f"scripts/oracle --lock {spec.jax} rewrites it\n")
        f.write(frozen)
