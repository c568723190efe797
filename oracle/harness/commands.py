"""The modes of scripts/oracle."""

import hashlib
import json
import os
import runpy
import sys
import time

from . import cases, paths, results, runner, venvs


def _say(msg):
    print(msg, file=sys.stderr, flush=True)


def _entries_for(version, case_list):
    out = []
    for case in case_list:
        if case.targets(version):
            out.extend(case.entries)
    return out


def _run(version, entries, args):
    python = venvs.ensure(venvs.spec_for(version))
    t0 = time.monotonic()
    got = runner.run(python, entries, jobs=args.jobs, cold=args.cold, log_dir=args.log_dir)
    _say(f"oracle: JAX {version}: {len(entries)} entries in {time.monotonic() - t0:.0f}s")
    return got


def _load_dirs(dirs):
    notes = cases.fixture_notes()
    out = []
    for d in dirs:
        if not os.path.isdir(d):
            raise SystemExit(f"scripts/oracle: {d}: not a directory")
        out.append(cases.load(os.path.abspath(d), notes))
    return out


def run_version(args):
    case_list = _load_dirs(args.cases) if args.cases else cases.all_cases()
    for c in case_list:
        if c.skip:
            _say(f"oracle: {c.dir}: not run: {c.skip}")
        elif not c.targets(args.jax):
            _say(f"oracle: {c.dir}: not run: targets JAX {c.versions}")
    got = _run(args.jax, _entries_for(args.jax, case_list), args)
    text = results.lines(got, args.jax)
    if args.out:
        results.write(args.out, text)
    else:
        sys.stdout.writelines(l + "\n" for l in text)
    return 0


def run_all(args):
    """Refreshes oracle/results for every version (--only: some); with
    CASE_DIRs, only their lines are replaced."""
    specs = venvs.read_versions()
    if args.only:
        wanted = set(args.only.split(","))
        specs = [s for s in specs if s.jax in wanted]
    case_list = _load_dirs(args.cases) if args.cases else cases.all_cases()
    t0 = time.monotonic()
    pairs = 0
    for spec in specs:
        entries = _entries_for(spec.jax, case_list)
        fresh = results.lines(_run(spec.jax, entries, args), spec.jax) if entries else []
        if args.cases:
            fresh = _merged(spec.jax, {c.dir for c in case_list}, fresh)
        results.write(results.committed_path(spec.jax), fresh)
        pairs += len(entries)
    _say(f"oracle: {pairs} (entry, version) pairs over {len(specs)} versions "
         f"in {time.monotonic() - t0:.0f}s")
    return 0


def _merged(version, replaced_dirs, fresh):
    """The committed lines of version without those of replaced_dirs, plus
    fresh, in result order."""
    kept = [raw for (case, _), raw in results.read_committed(version).items()
            if case not in replaced_dirs]
    return sorted(kept + fresh, key=lambda raw: tuple(json.loads(raw)[k] for k in ("case", "entry")))


def _sample(version, size, committed_only=True):
    """A deterministic sample of the entries of version (of its committed
    ones, by default): the entries whose hash of "case/entry" ranks first."""
    committed = results.read_committed(version)
    by_key = {(e.case, e.path): e for e in _entries_for(version, cases.all_cases())}
    keys = sorted((k for k in by_key if k in committed or not committed_only),
                  key=lambda k: hashlib.sha256(f"{k[0]}/{k[1]}".encode()).hexdigest())
    return [by_key[k] for k in keys[:size]], committed


def ci_sample(args):
    specs = venvs.read_versions()
    size = args.sample or 16
    failed = False
    t0 = time.monotonic()
    for spec in (specs[0], specs[-1]):
        entries, committed = _sample(spec.jax, size)
        got = _run(spec.jax, entries, args)
        for e, fresh in zip(sorted(got, key=lambda e: (e.case, e.path)), results.lines(got, spec.jax)):
            want = committed[(e.case, e.path)]
            if fresh != want:
                failed = True
                _say(f"oracle: MISMATCH {e.case} {e.path} JAX {spec.jax}\n  committed: {want}\n  fresh:     {fresh}")
    _say(f"oracle: CI sample ({size} entries on JAX {specs[0].jax} and {specs[-1].jax}) "
         f"{'FAILED' if failed else 'matches oracle/results'} in {time.monotonic() - t0:.0f}s")
    return 1 if failed else 0


def compare_cold(args):
    entries, _ = _sample(args.compare_cold, args.sample or 40, committed_only=False)
    fork = results.lines(_run(args.compare_cold, entries, args), args.compare_cold)
    args.cold = True
    cold = results.lines(_run(args.compare_cold, entries, args), args.compare_cold)
    diffs = [(a, b) for a, b in zip(fork, cold) if a != b]
    for a, b in diffs:
        _say(f"fork: {a}\ncold: {b}")
    _say(f"oracle: {len(entries) - len(diffs)}/{len(entries)} lines identical, fork server vs cold")
    return 1 if diffs else 0


def generate(args):
    runpy.run_path(os.path.join(paths.ORACLE, "gen.py"), run_name="__main__")
    return 0


def list_cases(args):
    for c in cases.all_cases():
        if c.skip:
            print(f"{c.dir}\tskip\t{c.skip}")
            continue
        targets = [s.jax for s in venvs.read_versions() if c.targets(s.jax)]
        for e in c.entries:
            print(f"{c.dir}\t{e.path}\t{e.kind}\t{','.join(targets)}")
    return 0


def lock(args):
    venvs.write_lock(venvs.spec_for(args.lock))
    _say(f"oracle: wrote {venvs.lock_path(args.lock)}")
    return 0
