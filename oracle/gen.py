"""Generates the oracle corpus, oracle/cases/gen: deterministic, so the
committed corpus is what this writes (scripts/oracle --generate runs it).
The compositions are listed in harness/gen/scenarios.py."""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness.gen import write  # noqa: E402

if __name__ == "__main__":
    write.main()
