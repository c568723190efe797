"""Writes the corpus into oracle/cases/gen (replacing what is there)."""

import os
import shutil

from .. import paths, venvs
from . import api as api_lib, program, scenarios


def cases():
    """(case, targeted versions) of every scenario that targets a version."""
    all_versions = [s.jax for s in venvs.read_versions()]
    out = []
    for s in scenarios.all_scenarios():
        case = program.build(s)
        versions = api_lib.targets(case.constraint, all_versions)
        if versions:
            out.append((case, versions))
    return out


def main():
    built = cases()
    if os.path.isdir(paths.GENERATED):
        shutil.rmtree(paths.GENERATED)
    for case, versions in built:
        d = os.path.join(paths.GENERATED, case.scenario.name)
        os.makedirs(d)
        for name, text in sorted(case.files.items()):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        with open(os.path.join(d, "case.toml"), "w") as f:
            f.write(program.case_toml(case, versions))
    pairs = sum(len(v) for _, v in built)
    print(f"oracle/gen.py: {len(built)} cases, {pairs} (case, version) pairs in {paths.rel(paths.GENERATED)}")
