"""Where the oracle's files are, relative to this checkout."""

import os

ORACLE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(ORACLE)
VERSIONS = os.path.join(ORACLE, "versions.txt")
LOCKS = os.path.join(ORACLE, "locks")
RESULTS = os.path.join(ORACLE, "results")
CASES = os.path.join(ORACLE, "cases")
GENERATED = os.path.join(CASES, "gen")
FIXTURES = os.path.join(REPO, "analysis", "rules", "testdata")
FIXTURE_NOTES = os.path.join(ORACLE, "fixtures.toml")
CHILD = os.path.join(ORACLE, "harness", "child")


def rel(path):
    """path relative to the repository root, with forward slashes."""
    return os.path.relpath(os.path.abspath(path), REPO).replace(os.sep, "/")
