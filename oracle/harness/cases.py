"""Cases and their entry files.

A case is a directory. Its entries are the files the oracle runs, each in
a process of its own:

* A case.toml in the directory names them (`entry = "main.py"` or
  `entries = [...]`) and may restrict the JAX versions (`versions =
  ">=0.6.1,<0.11"`), set environment variables (`[env]`) and keep the
  interpret mode the program asks for (`keep_interpret = true`). The
  generated corpus always has one.
* Otherwise (rule fixtures, or any directory given on the command line)
  they are found from the source (discover.py): test files run under
  pytest; a file with an `if __name__ == "__main__":` block, or with calls
  at module level that no other file of the case imports, runs as a
  script. oracle/fixtures.toml adds what the source cannot say for rule
  fixtures: why one is not runnable, environment variables.
"""

import dataclasses
import os
import tomllib

from . import discover, paths, versions as versions_lib


@dataclasses.dataclass(frozen=True)
class Entry:
    case: str  # case directory relative to the repository root
    path: str  # entry file relative to the case directory
    kind: str  # "script" or "pytest"
    env: tuple = ()  # sorted (name, value) pairs
    keep_interpret: bool = False  # run interpret mode as the program asks


@dataclasses.dataclass
class Case:
    dir: str  # relative to the repository root
    entries: list
    versions: str = ""  # a version constraint; empty: every version
    skip: str = ""  # why it does not run (then entries is empty)

    def targets(self, version):
        return not self.skip and versions_lib.matches(version, self.versions)


def load(case_dir, notes=None):
    rel = paths.rel(case_dir)
    meta_path = os.path.join(case_dir, "case.toml")
    meta = _read_toml(meta_path) if os.path.exists(meta_path) else {}
    note = (notes if notes is not None else fixture_notes()).get(_fixture_key(rel), {})
    meta = {**meta, **note}
    env = tuple(sorted((meta.get("env") or {}).items()))
    if meta.get("skip"):
        return Case(rel, [], skip=meta["skip"])
    names = meta.get("entries") or ([meta["entry"]] if meta.get("entry") else None)
    found = [(n, discover.kind_of(os.path.join(case_dir, n))) for n in names] if names else \
        discover.entries(case_dir)
    keep = bool(meta.get("keep_interpret"))
    entries = [Entry(rel, name, kind, env, keep) for name, kind in found]
    skip = "" if entries else "nothing runs: the files only import modules and define functions and constants"
    return Case(rel, entries, versions=meta.get("versions", ""), skip=skip)


def _read_toml(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def _fixture_key(rel):
    prefix = paths.rel(paths.FIXTURES) + "/"
    return rel[len(prefix):] if rel.startswith(prefix) else None


def fixture_notes():
    if not os.path.exists(paths.FIXTURE_NOTES):
        return {}
    return _read_toml(paths.FIXTURE_NOTES).get("fixture", {})


def fixture_dirs():
    out = []
    for code in sorted(os.listdir(paths.FIXTURES)):
        base = os.path.join(paths.FIXTURES, code)
        if os.path.isdir(base):
            out.extend(os.path.join(base, c) for c in sorted(os.listdir(base))
                       if os.path.isdir(os.path.join(base, c)))
    return out


def corpus_dirs():
    """Every case directory under oracle/cases (a directory with case.toml)."""
    out = []
    for root, dirs, files in os.walk(paths.CASES):
        dirs.sort()
        if "case.toml" in files:
            out.append(root)
            dirs[:] = []
    return sorted(out)


def all_cases():
    notes = fixture_notes()
    return [load(d, notes) for d in fixture_dirs() + corpus_dirs()]
