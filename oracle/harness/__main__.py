"""scripts/oracle: run cases under real JAX versions (see oracle/README.md).

  scripts/oracle --jax VERSION [--out FILE] CASE_DIR...   one JSON line per case entry
  scripts/oracle --all [--only VERSION,...]               refresh oracle/results/<version>.jsonl
  scripts/oracle --ci-sample                              re-run a sample, compare with results/
  scripts/oracle --generate                               rewrite oracle/cases/gen from gen.py
  scripts/oracle --list                                   cases, entries, versions, skips
  scripts/oracle --lock VERSION                           re-resolve locks/<version>.txt
  scripts/oracle --compare-cold VERSION [--sample N]      fork server vs cold processes
  scripts/oracle --report [--table]                       interception checks (and a table per scenario)
  scripts/oracle --self-test                              the harness's tests (no JAX needed)
"""

import argparse
import sys

from . import commands


def parse(argv):
    p = argparse.ArgumentParser(prog="scripts/oracle", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--jax", metavar="VERSION", help="run CASE_DIRs under this JAX version")
    mode.add_argument("--all", action="store_true", help="refresh oracle/results for every version")
    mode.add_argument("--ci-sample", action="store_true",
                      help="re-run a sample on the oldest and newest versions; fail on a difference")
    mode.add_argument("--generate", action="store_true", help="regenerate oracle/cases/gen")
    mode.add_argument("--list", action="store_true", help="list cases and entries")
    mode.add_argument("--lock", metavar="VERSION", help="rewrite locks/VERSION.txt from PyPI")
    mode.add_argument("--compare-cold", metavar="VERSION",
                      help="run a sample both ways and report any difference")
    mode.add_argument("--report", action="store_true",
                      help="check forced against explicit TPU lowering in oracle/results")
    mode.add_argument("--self-test", action="store_true", help="the harness's own tests")
    p.add_argument("cases", nargs="*", metavar="CASE_DIR")
    p.add_argument("--out", metavar="FILE", help="write the lines here instead of stdout")
    p.add_argument("--only", metavar="VERSIONS", help="with --all: these versions only")
    p.add_argument("--jobs", type=int, default=2, help="case processes at a time (default 2)")
    p.add_argument("--cold", action="store_true", help="a new interpreter per case, no fork server")
    p.add_argument("--sample", type=int, default=0, help="sample size (--ci-sample, --compare-cold)")
    p.add_argument("--log-dir", metavar="DIR", help="keep each case's stdout and stderr here")
    p.add_argument("--table", action="store_true", help="with --report: the first error per scenario")
    return p.parse_args(argv)


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.jax:
        return commands.run_version(args)
    if args.all:
        return commands.run_all(args)
    if args.ci_sample:
        return commands.ci_sample(args)
    if args.generate:
        return commands.generate(args)
    if args.list:
        return commands.list_cases(args)
    if args.lock:
        return commands.lock(args)
    if args.self_test:
        from . import selftest
        return selftest.main()
    if args.report:
        from . import report
        return report.main(args)
    return commands.compare_cold(args)


if __name__ == "__main__":
    sys.exit(main())
