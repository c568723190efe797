"""Summaries of the committed results (scripts/oracle --report).

* The interception check: a case run by `lower_tpu` lowers explicitly with
  jit(f).trace(x).lower(lowering_platforms=("tpu",)); the same scenario
  run by `call` goes through the oracle's forced lowering. Both must
  record the same first error (type and message).
* The interpret check: a kernel reached through an interpret idiom
  (interpret=True, interpret=default_backend()=="cpu",
  force_tpu_interpret_mode) must record what the direct reach records.
* With --table, a table of the first error per scenario (kernel x
  context x spelling, direct reach, call mode) and version.
"""

import collections
import json
import os
import tomllib

from . import paths, results, venvs


def _scenarios():
    out = {}
    for name in sorted(os.listdir(paths.GENERATED)):
        with open(os.path.join(paths.GENERATED, name, "case.toml"), "rb") as f:
            out[f"oracle/cases/gen/{name}"] = tomllib.load(f)["scenario"]
    return out


def _errors(version):
    out = {}
    for (case, entry), raw in results.read_committed(version).items():
        out[case] = json.loads(raw)["error"]
    return out


def _short(err):
    if err is None:
        return "ok"
    return f"{err['type']}: {err['message'][:90]}"


def _pairs(scenarios, key_of):
    """(a, b) case pairs: scenarios equal but for what key_of separates."""
    groups = {}
    for case, s in scenarios.items():
        key, side = key_of(s)
        if key is not None:
            groups.setdefault(key, {})[side] = case
    return [(g["a"], g["b"]) for _, g in sorted(groups.items()) if "a" in g and "b" in g]


def _twin_modes(s):
    """call (a) against lower_tpu (b) of the same scenario."""
    side = {"call": "a", "lower_tpu": "b"}.get(s["mode"])
    return ((s["kernel"], s["reach"], s["context"], s["api"]) if side else None), side


INTERPRET_REACHES = ("interpret_true", "interpret_on_cpu", "force_interpret")


def _interpret_pairs(scenarios):
    """(direct reach, interpret idiom) pairs of the same kernel and context."""
    def plain(s):
        return s["mode"] == "call" and s["api"] == "modern"
    direct = {(s["kernel"], s["context"]): c for c, s in scenarios.items()
              if plain(s) and s["reach"] == "direct"}
    return [(direct[(s["kernel"], s["context"])], c) for c, s in sorted(scenarios.items())
            if plain(s) and s["reach"] in INTERPRET_REACHES and (s["kernel"], s["context"]) in direct]


def compare(versions, pairs):
    same, differ = 0, []
    for v in versions:
        errs = _errors(v)
        for a, b in pairs:
            if a in errs and b in errs:
                ea, eb = errs[a], errs[b]
                if _key(ea) == _key(eb):
                    same += 1
                else:
                    differ.append((v, f"{a} vs {b.rsplit('/', 1)[-1]}", _short(ea), _short(eb)))
    return same, differ


def _key(err):
    return None if err is None else (err["type"], err["message"])


def table(versions, scenarios, contexts=None):
    rows = collections.defaultdict(dict)
    for v in versions:
        errs = _errors(v)
        for case, s in scenarios.items():
            if s["reach"] == "direct" and s["mode"] == "call" and case in errs:
                rows[(s["kernel"], s["context"], s["api"])][v] = _short(errs[case])
    return rows


def main(args):
    versions = [s.jax for s in venvs.read_versions()]
    scenarios = _scenarios()
    failed = False
    for title, pairs in (("forced lowering (call) vs explicit lowering (lower_tpu)",
                          _pairs(scenarios, _twin_modes)),
                         ("interpret=False vs interpret idioms the oracle turns off",
                          _interpret_pairs(scenarios))):
        same, differ = compare(versions, pairs)
        print(f"{title}: {same} (case, version) pairs agree, {len(differ)} differ")
        for v, case, a, b in differ:
            print(f"  JAX {v} {case}\n    first:  {a}\n    second: {b}")
        failed = failed or bool(differ)
    if args.table:
        for (kernel, context, api), by_version in sorted(table(versions, scenarios).items()):
            print(f"{kernel} / {context} / {api}")
            prev = None
            for v in versions:
                got = by_version.get(v)
                if got is not None and got != prev:
                    print(f"    {v:>9}  {got}")
                    prev = got
    return 1 if failed else 0
